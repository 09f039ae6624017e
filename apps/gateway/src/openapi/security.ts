import { CHECKOUT_SCOPES, SECRET_SCOPES } from '@ticketing/auth';
import type { Access } from '../routes/route';

type SchemeName = 'secretKey' | 'secretKeyHeader' | 'publishableKey' | 'publishableKeyHeader' | 'webhookSignature';

const secretScopes = `Scopes: ${SECRET_SCOPES.join(', ')} (payouts:claim also grants payouts:read).`;
const checkoutScopes = `Scopes: ${CHECKOUT_SCOPES.join(', ')}, whatever else is stored on the key.`;

/**
 * A key is sent as a bearer token (preferred) or in x-api-key; each way is one scheme per kind
 * of key, so secret and publishable operations differ in the document. OpenAPI lets non-OAuth
 * schemes name required "roles" in a requirement: those are our scopes, listed in `x-scopes`.
 */
export const SECURITY_SCHEMES = {
  secretKey: {
    type: 'http',
    scheme: 'bearer',
    description: `A secret key (sk_test_…, sk_live_…) as "Authorization: Bearer <API_KEY>". ${secretScopes}`,
    'x-scopes': [...SECRET_SCOPES],
  },
  secretKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: `Alternative: a secret key as "x-api-key: <API_KEY>". ${secretScopes}`,
    'x-scopes': [...SECRET_SCOPES],
  },
  publishableKey: {
    type: 'http',
    scheme: 'bearer',
    description: `A publishable key (pk_test_…, pk_live_…) as "Authorization: Bearer <API_KEY>"; hosted checkout only. ${checkoutScopes}`,
    'x-scopes': [...CHECKOUT_SCOPES],
  },
  publishableKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: `Alternative: a publishable key as "x-api-key: <API_KEY>". ${checkoutScopes}`,
    'x-scopes': [...CHECKOUT_SCOPES],
  },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description:
      'How a receiver knows a delivery is ours (Standard Webhooks): the signature of webhook-id, webhook-timestamp and the body by the endpoint’s whsec_ secret. Verify it before trusting the body.',
  },
} as const satisfies Record<SchemeName, object>;

/** How a webhook delivery authenticates itself to its receiver. */
export const WEBHOOK_SECURITY: Record<string, string[]>[] = [{ webhookSignature: [] }];

/** Who may call an operation, as OpenAPI security requirements: any one of them suffices. */
export function securityRequirements(access: Access): Record<string, string[]>[] {
  if (access.kind === 'public') return [];
  const scopes = access.scope === null ? [] : [access.scope];
  const [bearer, header]: [SchemeName, SchemeName] = access.kind === 'secret' ? ['secretKey', 'secretKeyHeader'] : ['publishableKey', 'publishableKeyHeader'];
  return [{ [bearer]: scopes }, { [header]: scopes }];
}
