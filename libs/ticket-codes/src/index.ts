export { TicketCodeSigner, type PublicCodeKey, type TicketCodeClaims } from './ticket-code-signer';
