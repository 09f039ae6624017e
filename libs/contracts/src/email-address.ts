/** Something@somewhere.tld without spaces: what services accept as an email address. */
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_ADDRESS_MAX_LENGTH = 320;

export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_ADDRESS_MAX_LENGTH && EMAIL_ADDRESS.test(value);
}
