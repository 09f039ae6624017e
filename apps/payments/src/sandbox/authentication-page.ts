/** Where the sandbox's authentication pages are, here and behind the gateway. */
export const SANDBOX_PAGE_PATH = '/sandbox';
export const AUTHENTICATION_PAGE_PREFIX = `${SANDBOX_PAGE_PATH}/authenticate/`;

/** What the page knows of the charge it authenticates. */
export interface ChargeToAuthenticate {
  id: string;
  amount: number;
  currency: string;
}

export type AuthenticationEnd = 'authenticated' | 'failed' | 'over' | 'missing' | 'unavailable';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
.badge{display:inline-block;background:#fff3cd;border:1px solid #e0c060;border-radius:4px;padding:.1rem .4rem;font-size:.8rem}
button{font-size:1rem;padding:.6rem 1rem;margin:.3rem .3rem 0 0;border-radius:4px;border:1px solid #888;cursor:pointer}
button[value=authenticated]{background:#1a7f37;color:#fff;border-color:#1a7f37}</style>
</head><body><p class="badge">Test mode: sandbox</p>${body}</body></html>`;
}

/** A money amount as a buyer reads it: "€90.00". */
function amountText(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/**
 * The sandbox's stand-in for a card issuer's authentication (3-D Secure) page: the buyer
 * completes or fails it, as Stripe's test page lets them.
 */
export function authenticationPage(charge: ChargeToAuthenticate): string {
  return page(
    'Authenticate this payment',
    `<h1>Authenticate this payment</h1>
<p>Your bank asks you to confirm a payment of <strong>${amountText(charge.amount, charge.currency)}</strong>.</p>
<form method="post" action="${AUTHENTICATION_PAGE_PREFIX}${charge.id}">
<button name="outcome" value="authenticated">Complete authentication</button>
<button name="outcome" value="failed">Fail authentication</button>
</form>`,
  );
}

const ENDINGS: Record<AuthenticationEnd, [string, string]> = {
  authenticated: ['Payment authenticated', 'The payment is going ahead. You can close this page.'],
  failed: ['Authentication failed', 'The payment was not made. You can close this page and try again.'],
  over: ['Nothing left to authenticate', 'This payment has already been decided. You can close this page.'],
  missing: ['No such payment', 'This authentication link is not valid.'],
  unavailable: ['This page is not available right now', 'Reload it in a minute to try again.'],
};

export function authenticationEndPage(end: AuthenticationEnd): string {
  const [title, text] = ENDINGS[end];
  return page(title, `<h1>${title}</h1><p>${text}</p>`);
}
