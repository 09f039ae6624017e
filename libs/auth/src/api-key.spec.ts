import { containsWholeApiKey, generateApiKey, redactApiKeys } from './api-key';

describe('whole API keys in text', () => {
  const { secret, prefix } = generateApiKey('secret', 'live');

  it('finds a whole key of any kind and mode, and not a key prefix or an id', () => {
    expect(containsWholeApiKey(`/v1/account/keys/${secret}`)).toBe(true);
    expect(containsWholeApiKey(generateApiKey('publishable', 'test').secret)).toBe(true);
    expect(containsWholeApiKey(`/v1/account/keys/${prefix}`)).toBe(false);
    expect(containsWholeApiKey('/v1/events/evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST')).toBe(false);
  });

  it('cuts every whole key to its prefix for logs', () => {
    expect(redactApiKeys(`/v1/account/keys/${secret} and ${secret}`)).toBe(`/v1/account/keys/${prefix}… and ${prefix}…`);
    expect(redactApiKeys(`/v1/account/keys/${prefix}`)).toBe(`/v1/account/keys/${prefix}`);
  });

  it('finds a key glued to other text or percent-encoded, as a URL may carry it', () => {
    expect(redactApiKeys(`/v1/account/keys/x${secret}`)).toBe(`/v1/account/keys/x${prefix}…`);
    const encoded = `%73${secret.slice(1).replaceAll('_', '%5F')}`;
    expect(redactApiKeys(`/v1/events/${encoded}`)).toBe(`/v1/events/${prefix}…`);
    expect(redactApiKeys('/v1/events/%E0%A4%A')).toBe('/v1/events/%E0%A4%A');
    expect(redactApiKeys('/v1/events/caf%C3%A9')).toBe('/v1/events/caf%C3%A9');
  });
});
