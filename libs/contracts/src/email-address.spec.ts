import { isEmailAddress } from './email-address';

describe('isEmailAddress', () => {
  it.each(['ann@example.com', 'a/b@example.com', 'a=b@example.com', 'a%b@example.com', 'a#b@example.com', '{a}@example.com', "o'neil+tickets@mail.example.co.uk"])('takes %p', (email) => {
    expect(isEmailAddress(email)).toBe(true);
  });

  it.each(['ann', 'ann@', '@example.com', 'ann@gmailcom', 'ann smith@example.com', 'ann@@example.com', 'a@b@example.com', 'ann@-example.com', `${'a'.repeat(310)}@example.com`])('refuses %p', (email) => {
    expect(isEmailAddress(email)).toBe(false);
  });
});
