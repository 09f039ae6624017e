import { createServer, type IncomingMessage, type Server } from 'node:http';
import { isId } from '@ticketing/ids';
import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../db';
import { ChargeRepository } from '../repositories/charge.repository';
import type { CompleteAuthenticationUseCase } from '../usecases/complete-authentication/complete-authentication.usecase';
import { AUTHENTICATION_PAGE_PREFIX, authenticationEndPage, authenticationPage, type AuthenticationEnd } from './authentication-page';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
};

/** The form's answer, at most a few bytes: `outcome=authenticated` or `outcome=failed`. */
async function formOutcome(req: IncomingMessage): Promise<'authenticated' | 'failed' | null> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 1024) return null;
  }
  const outcome = new URLSearchParams(body).get('outcome');
  return outcome === 'authenticated' || outcome === 'failed' ? outcome : null;
}

/**
 * Payments' page server: the sandbox's authentication page (decision 0061), which the gateway
 * forwards /sandbox/… to. `GET /sandbox/authenticate/<charge>` shows it while the test-mode
 * charge awaits authentication; the page's form POSTs the buyer's answer back, and the charge
 * and its intent move on.
 */
export function startSandboxPageServer(port: number, deps: { prisma: PrismaClient; completeAuthentication: CompleteAuthenticationUseCase; logger: Logger }): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, html: string) => {
      res.writeHead(status, PAGE_HEADERS);
      res.end(html);
    };
    const path = (req.url ?? '').split('?')[0]!;
    const chargeId = path.startsWith(AUTHENTICATION_PAGE_PREFIX) ? path.slice(AUTHENTICATION_PAGE_PREFIX.length) : '';
    if (!isId(chargeId, 'ch')) return send(404, authenticationEndPage('missing'));
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
      res.setHeader('allow', 'GET, HEAD, POST');
      return send(405, authenticationEndPage('missing'));
    }
    answer(req.method, req, chargeId, deps)
      .then(({ status, html }) => send(status, html))
      .catch((error: unknown) => {
        deps.logger.error({ err: error, charge_id: chargeId }, 'sandbox authentication page failed');
        send(503, authenticationEndPage('unavailable'));
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

async function answer(method: string, req: IncomingMessage, chargeId: string, deps: { prisma: PrismaClient; completeAuthentication: CompleteAuthenticationUseCase }): Promise<{ status: number; html: string }> {
  const charge = await new ChargeRepository(deps.prisma).findById(chargeId);
  if (!charge || charge.mode !== 'test') return { status: 404, html: authenticationEndPage('missing') };
  if (method !== 'POST') return charge.status === 'requires_action' ? { status: 200, html: authenticationPage(charge) } : { status: 409, html: authenticationEndPage('over') };
  const outcome = await formOutcome(req);
  if (!outcome) return { status: 400, html: authenticationPage(charge) };
  if (charge.status !== 'requires_action') return { status: 409, html: authenticationEndPage('over') };
  const intent = await deps.completeAuthentication.execute(chargeId, outcome === 'authenticated');
  const end: AuthenticationEnd = intent.status === 'succeeded' ? 'authenticated' : 'failed';
  return { status: 200, html: authenticationEndPage(end) };
}
