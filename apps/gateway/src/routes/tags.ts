/**
 * The sections of the API reference, in reading order. Every operation names one, and each
 * says what it holds, so a tag without a description does not compile.
 */
export const API_TAGS = {
  Public: 'No key needed: an uptime check, this document and its interactive explorer.',
  'Account and keys': "The calling key's account and mode, and minting, listing and revoking API keys.",
  Events: 'Events: their venue, lifecycle (draft → published → canceled | completed), waiting room and seat map.',
  Tiers: "An event's ticket tiers: price, capacity and sales window.",
  Organizations: 'Organizations that events are grouped under.',
  Discounts: 'Discount codes and automatic discounts, and the triggers that apply them.',
  Tickets: 'Issued tickets and their lifecycle: delivery, transfer, refund, revocation and upgrades.',
  'Comps (guest list)': 'Complimentary tickets on an event’s guest list.',
  'Seat holds': 'Seats held for a buyer while they check out.',
  'Waiting room': 'The on-sale queue of an event.',
  Customers: 'Ticket buyers and the segments they fall into.',
  Segments: 'Saved customer segments.',
  Payments: 'Payment intents and the payments they produce.',
  'Hosted checkout': 'The browser-facing checkout; publishable keys only.',
  Marketplace: 'Secondary-market resale listings.',
  Reports: 'Sales and attendance reports.',
  Scanning: 'Validating tickets and checking attendees in at the door, online or in offline batches.',
  'Door staff': 'Door staff, their event assignments and their scanning statistics.',
  Webhooks: 'Webhook endpoints and the log of deliveries to them.',
  'Balance and payouts': 'The account balance, payouts and the connected payout account.',
} as const satisfies Record<string, string>;

export type ApiTag = keyof typeof API_TAGS;
