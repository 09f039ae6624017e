import { LRUCache } from 'lru-cache';
import { Webhook } from 'standardwebhooks';
import type { WebhookPayload } from '../domain/delivery';
import type { WebhookEndpoint } from '../domain/endpoint';
import type { StoredNotification } from '../repositories/notification.repository';
import type { EndpointSecrets } from '../secrets/endpoint-secrets';
import type { SendOutcome, WebhookSender } from './webhook-sender';

/**
 * Sends a notification to an endpoint as Standard Webhooks describes: the notification's id as
 * `webhook-id` (the same on every attempt, so receivers can deduplicate), the attempt's time as
 * `webhook-timestamp`, and a signature by the endpoint's secret, plus one by its previous secret
 * while a rotation overlaps, space-separated in `webhook-signature`.
 */
export class SignedDelivery {
  /**
   * Signers by sealed secret: opening a secret and preparing its key for every attempt cost more
   * than the rest of the signing. A rotated secret is another entry; the old one ages out.
   */
  private readonly signers = new LRUCache<string, Webhook>({ max: 10_000 });

  constructor(
    private readonly sender: WebhookSender,
    private readonly secrets: EndpointSecrets,
  ) {}

  send(endpoint: WebhookEndpoint, notification: StoredNotification, at: Date): Promise<SendOutcome> {
    const body = JSON.stringify(payloadOf(notification));
    return this.sender.send({ url: endpoint.url, mode: endpoint.mode, headers: this.signedHeaders(endpoint, notification.id, at, body), body });
  }

  private signedHeaders(endpoint: WebhookEndpoint, messageId: string, at: Date, body: string): Record<string, string> {
    const sealed = [endpoint.sealed_secret];
    if (endpoint.sealed_previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > at) sealed.push(endpoint.sealed_previous_secret);
    const signatures = sealed.map((secret) => this.signer(secret, endpoint.id).sign(messageId, at, body));
    return { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures.join(' ') };
  }

  private signer(sealed: string, endpointId: string): Webhook {
    let signer = this.signers.get(sealed);
    if (!signer) {
      signer = new Webhook(this.secrets.open(sealed, endpointId));
      this.signers.set(sealed, signer);
    }
    return signer;
  }
}

function payloadOf(notification: StoredNotification): WebhookPayload {
  return { id: notification.id, type: notification.type, created_at: notification.occurred_at.toISOString(), livemode: notification.mode === 'live', data: notification.data };
}
