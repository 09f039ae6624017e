/**
 * An email address: a local part of any character a browser's `<input type="email">` accepts
 * there (the HTML standard's grammar: letters, digits and .!#$%&'*+/=?^_`{|}~-), at a domain
 * with a top-level part of letters, as zod's own email check requires. The domain rule refuses
 * the typo that loses a buyer's tickets ("ann@gmailcom"); the local part takes every address
 * buyers' forms send. The gateway documents and checks it; services check it again for their
 * other callers.
 */
export const EMAIL_ADDRESS = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$/;
export const EMAIL_ADDRESS_MAX_LENGTH = 320;

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_ADDRESS_MAX_LENGTH && EMAIL_ADDRESS.test(value);
}
