import { validContactEmail, validOrganizationDescription, validOrganizationName, validWebsite } from './organization';

describe('organization fields', () => {
  it('trims names and refuses empty or overlong ones', () => {
    expect(validOrganizationName('  Acme Events ')).toBe('Acme Events');
    expect(() => validOrganizationName(' ')).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'name' }));
    expect(() => validOrganizationName('x'.repeat(201))).toThrow(expect.objectContaining({ param: 'name' }));
  });

  it('reads an empty description as none', () => {
    expect(validOrganizationDescription('')).toBeNull();
    expect(validOrganizationDescription(' About us ')).toBe('About us');
    expect(() => validOrganizationDescription('x'.repeat(5001))).toThrow(expect.objectContaining({ param: 'description' }));
  });
});

describe('validWebsite', () => {
  it('reads empty as no website', () => {
    expect(validWebsite('')).toBeNull();
    expect(validWebsite('   ')).toBeNull();
  });

  it.each(['https://example.com', 'http://example.com', 'https://events.example.com/acme?ref=x#top', 'HTTPS://EXAMPLE.COM'])('keeps %p as given', (url) => {
    expect(validWebsite(url)).toBe(url);
  });

  it('trims the URL it keeps', () => {
    expect(validWebsite('  https://example.com  ')).toBe('https://example.com');
  });

  it.each(['ftp://example.com', 'mailto:info@example.com', 'javascript:alert(1)', 'file:///etc/passwd', 'example.com', 'not a url', 'https//example.com'])(
    'refuses %p naming website',
    (url) => {
      expect(() => validWebsite(url)).toThrow(
        expect.objectContaining({ code: 'parameter_invalid', param: 'website', message: 'website must be an http(s) URL such as https://example.com.' }),
      );
    },
  );

  it('refuses URLs over 2000 characters', () => {
    expect(() => validWebsite(`https://example.com/${'a'.repeat(2000)}`)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'website' }));
  });
});

describe('validContactEmail', () => {
  it('reads empty as no address', () => {
    expect(validContactEmail('')).toBeNull();
    expect(validContactEmail('  ')).toBeNull();
  });

  it('keeps a plausible address, trimmed', () => {
    expect(validContactEmail('info@example.com')).toBe('info@example.com');
    expect(validContactEmail(' first.last+tag@mail.example.co.uk ')).toBe('first.last+tag@mail.example.co.uk');
  });

  it.each(['info', 'info@', '@example.com', 'info@example', 'in fo@example.com', 'info@@example.com', 'a@b@c.com'])('refuses %p naming contact_email', (email) => {
    expect(() => validContactEmail(email)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'contact_email', message: 'contact_email must be an email address.' }),
    );
  });

  it('refuses addresses over 320 characters', () => {
    expect(() => validContactEmail(`${'a'.repeat(310)}@example.com`)).toThrow(expect.objectContaining({ param: 'contact_email' }));
  });
});
