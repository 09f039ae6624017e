import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { get } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Mode } from '@ticketing/auth';
import { checkEndpointUrl, checkLiteralDestination, forbiddenAddressKind, guardedLookup } from './destination-policy';

const strict = { allowLocalHttp: false };
const local = { allowLocalHttp: true };

describe('forbiddenAddressKind', () => {
  it.each([
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.10.20.30', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.170.2', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('judges IPv4 %s %p', (address, kind) => {
    expect(forbiddenAddressKind(address)).toBe(kind);
  });

  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fd00:0ec2:0:0:0:0:0:254', 'cloud metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('judges IPv6 %s %p', (address, kind) => {
    expect(forbiddenAddressKind(address)).toBe(kind);
  });

  it.each([
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:0:a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
  ])('judges %s by the IPv4 address it reaches: %p', (address, kind) => {
    expect(forbiddenAddressKind(address)).toBe(kind);
  });

  it.each(['::ffff:8.8.8.8', '::ffff:0:808:808', '64:ff9b::808:808'])('allows %s, which reaches a public IPv4 address', (address) => {
    expect(forbiddenAddressKind(address)).toBeNull();
  });

  it.each([
    ['2002:a00:1::1', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['::a00:1', 'IPv4-compatible'],
    ['::808:808', 'IPv4-compatible'],
    ['2001:2::1', 'benchmarking'],
    ['2001:20::1', 'ORCHIDv2'],
  ])('refuses %s (%s) as reserved, whatever IPv4 address it embeds', (address) => {
    expect(forbiddenAddressKind(address)).toBe('reserved');
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700::1111', '2001:4860:4860::8888'])('allows the public address %s', (address) => {
    expect(forbiddenAddressKind(address)).toBeNull();
  });

  it('throws for what is not an IP address', () => {
    expect(() => forbiddenAddressKind('example.com')).toThrow();
  });
});

describe('checkEndpointUrl', () => {
  const refusal = (message: string | RegExp) =>
    expect.objectContaining({ code: 'parameter_invalid', param: 'url', message: typeof message === 'string' ? message : expect.stringMatching(message) });

  it('returns the parsed URL of a public https endpoint in either mode', () => {
    for (const mode of ['test', 'live'] as const) {
      const url = checkEndpointUrl('https://hooks.example.com:8443/ticketing?source=x', mode, strict);
      expect(url).toBeInstanceOf(URL);
      expect(url.href).toBe('https://hooks.example.com:8443/ticketing?source=x');
    }
    expect(checkEndpointUrl('https://[2606:4700::1111]/hooks', 'live', strict).hostname).toBe('[2606:4700::1111]');
    expect(checkEndpointUrl('https://8.8.8.8/hooks', 'live', strict).hostname).toBe('8.8.8.8');
  });

  it.each(['', 'hooks.example.com/webhooks', '/webhooks', 'not a url', 'https://'])('refuses %p, which is not an absolute URL', (raw) => {
    expect(() => checkEndpointUrl(raw, 'test', strict)).toThrow(refusal('url must be an absolute URL such as https://example.com/webhooks.'));
  });

  it('refuses URLs over 2048 characters', () => {
    const base = 'https://hooks.example.com/';
    expect(checkEndpointUrl(base + 'a'.repeat(2048 - base.length), 'live', strict).href).toHaveLength(2048);
    expect(() => checkEndpointUrl(base + 'a'.repeat(2049 - base.length), 'live', strict)).toThrow(refusal('url must be at most 2048 characters.'));
  });

  it('accepts http for a public host in test mode only', () => {
    expect(checkEndpointUrl('http://hooks.example.com/webhooks', 'test', strict).protocol).toBe('http:');
    expect(() => checkEndpointUrl('http://hooks.example.com/webhooks', 'live', strict)).toThrow(
      refusal('url must start with https:// in live mode; http is accepted only for test-mode endpoints.'),
    );
  });

  it.each(['ftp://hooks.example.com/', 'ws://hooks.example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:ops@example.com'])(
    'refuses the scheme of %p in either mode',
    (raw) => {
      expect(() => checkEndpointUrl(raw, 'test', strict)).toThrow(refusal('url must start with https:// or http://.'));
      expect(() => checkEndpointUrl(raw, 'live', strict)).toThrow(refusal(/^url must start with https:\/\/ in live mode/));
    },
  );

  it.each(['https://user:secret@hooks.example.com/', 'https://user@hooks.example.com/', 'https://:secret@hooks.example.com/'])(
    'refuses the credentials in %p',
    (raw) => {
      expect(() => checkEndpointUrl(raw, 'test', strict)).toThrow(
        refusal('url must not contain a username or password; verify deliveries by their webhook signature instead.'),
      );
    },
  );

  it.each([
    ['https://10.0.0.5/hooks', 'a private address (10.0.0.5)'],
    ['https://172.16.8.1/', 'a private address (172.16.8.1)'],
    ['https://192.168.0.10:8443/', 'a private address (192.168.0.10)'],
    ['https://169.254.169.254/latest/meta-data/', 'a cloud metadata address (169.254.169.254)'],
    ['https://169.254.1.1/', 'a link-local address (169.254.1.1)'],
    ['https://100.64.0.1/', 'a carrier-grade NAT address (100.64.0.1)'],
    ['https://0.0.0.0/', 'an unspecified address (0.0.0.0)'],
    ['https://224.0.0.251/', 'a multicast address (224.0.0.251)'],
    ['https://255.255.255.255/', 'a broadcast address (255.255.255.255)'],
    ['https://[fd00:ec2::254]/', 'a cloud metadata address (fd00:ec2::254)'],
    ['https://[fe80::1]/', 'a link-local address (fe80::1)'],
    ['https://[fd12::1]/', 'a unique-local address (fd12::1)'],
    ['https://[::]/', 'an unspecified address (::)'],
    ['https://[::ffff:10.0.0.1]/', 'a private address (::ffff:a00:1)'],
    ['https://[2002:a00:1::1]/', 'a reserved address (2002:a00:1::1)'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'a cloud metadata host (metadata.google.internal)'],
    ['https://metadata/computeMetadata/v1/', 'a cloud metadata host (metadata)'],
    ['https://metadata.google.internal./', 'a cloud metadata host (metadata.google.internal)'],
    ['https://db.us-east-1.compute.internal/', 'a private host (db.us-east-1.compute.internal)'],
  ])('refuses %s as %s', (raw, what) => {
    expect(() => checkEndpointUrl(raw, 'test', local)).toThrow(refusal(`url points at ${what}; webhooks are delivered only to public addresses.`));
  });

  it.each([
    ['http://127.0.0.1:3000/hooks', 'a loopback address (127.0.0.1)'],
    ['http://127.0.0.2/', 'a loopback address (127.0.0.2)'],
    ['http://[::1]:8080/', 'a loopback address (::1)'],
    ['http://[::ffff:127.0.0.1]/', 'a loopback address (::ffff:7f00:1)'],
    ['http://2130706433/', 'a loopback address (127.0.0.1)'],
    ['http://0x7f.1/', 'a loopback address (127.0.0.1)'],
    ['http://localhost:4000/hooks', 'a loopback host (localhost)'],
    ['http://LOCALHOST./', 'a loopback host (localhost)'],
    ['http://api.localhost/', 'a loopback host (api.localhost)'],
  ])('refuses loopback %s, unless local http is allowed in test mode', (raw, what) => {
    const message = `url points at ${what}; webhooks are delivered only to public addresses.`;
    expect(() => checkEndpointUrl(raw, 'test', strict)).toThrow(refusal(message));
    expect(() => checkEndpointUrl(raw, 'live', local)).toThrow(refusal(/^url must start with https:\/\/ in live mode/));
    expect(() => checkEndpointUrl(raw.replace('http:', 'https:'), 'live', local)).toThrow(refusal(message));
    expect(checkEndpointUrl(raw, 'test', local)).toBeInstanceOf(URL);
  });

  it('allows only loopback under the local http setting', () => {
    expect(() => checkEndpointUrl('http://10.0.0.5/', 'test', local)).toThrow(refusal(/private address/));
    expect(() => checkEndpointUrl('http://169.254.169.254/', 'test', local)).toThrow(refusal(/cloud metadata address/));
  });
});

describe('checkLiteralDestination', () => {
  it('refuses a forbidden IP literal, naming it', () => {
    expect(checkLiteralDestination(new URL('https://10.0.0.5/hooks'), 'live', strict)).toBe('webhook destination 10.0.0.5 is a private address');
    expect(checkLiteralDestination(new URL('https://[::ffff:169.254.169.254]/'), 'live', strict)).toBe(
      'webhook destination ::ffff:a9fe:a9fe is a cloud metadata address',
    );
  });

  it('allows a public IP literal, and leaves names to the lookup', () => {
    expect(checkLiteralDestination(new URL('https://8.8.8.8/'), 'live', strict)).toBeNull();
    expect(checkLiteralDestination(new URL('https://[2606:4700::1111]/'), 'live', strict)).toBeNull();
    expect(checkLiteralDestination(new URL('https://localhost/'), 'live', strict)).toBeNull();
  });

  it('allows loopback only under the local http setting in test mode', () => {
    for (const raw of ['http://127.0.0.1:3000/', 'http://[::1]:3000/']) {
      const url = new URL(raw);
      expect(checkLiteralDestination(url, 'test', strict)).toMatch(/is a loopback address$/);
      expect(checkLiteralDestination(url, 'live', local)).toMatch(/is a loopback address$/);
      expect(checkLiteralDestination(url, 'test', local)).toBeNull();
    }
  });
});

describe('guardedLookup', () => {
  afterEach(() => jest.restoreAllMocks());

  const resolve = (lookup: LookupFunction, hostname: string, options: LookupOptions) =>
    new Promise<{ address: string | LookupAddress[]; family: number | undefined }>((done, fail) =>
      lookup(hostname, options, (error, address, family) => (error ? fail(error) : done({ address, family }))),
    );
  /** Makes dns.lookup call back with `answer`, as a resolver whose answer changed would. */
  const dnsAnswers = (...answer: [Error] | [null, LookupAddress[]]) =>
    jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((_hostname: string, _options: LookupOptions, callback: (...args: unknown[]) => void) => callback(...answer)) as typeof dns.lookup);

  it.each([
    ['test', strict],
    ['live', strict],
    ['live', local],
  ] as [Mode, typeof local][])('refuses localhost in %s mode with %p', async (mode, settings) => {
    await expect(resolve(guardedLookup(mode, settings), 'localhost', {})).rejects.toMatchObject({
      code: 'EDESTINATIONFORBIDDEN',
      message: expect.stringMatching(/^webhook destination localhost resolves to (127\.0\.0\.1|::1), a loopback address$/),
    });
  });

  it('allows localhost in test mode under the local http setting, in the shape asked for', async () => {
    const all = await resolve(guardedLookup('test', local), 'localhost', { all: true });
    expect(Array.isArray(all.address)).toBe(true);
    const kinds = (all.address as LookupAddress[]).map(({ address }) => forbiddenAddressKind(address));
    expect(kinds.length > 0 && kinds.every((kind) => kind === 'loopback')).toBe(true);

    const one = await resolve(guardedLookup('test', local), 'localhost', {});
    expect(typeof one.address).toBe('string');
    expect(forbiddenAddressKind(one.address as string)).toBe('loopback');
    expect(one.family).toBe(one.address === '::1' ? 6 : 4);
  });

  it('answers a public host with every address when asked for all, else with one and its family', async () => {
    await expect(resolve(guardedLookup('live', strict), '8.8.8.8', { all: true })).resolves.toEqual({
      address: [{ address: '8.8.8.8', family: 4 }],
      family: undefined,
    });
    await expect(resolve(guardedLookup('live', strict), '2606:4700::1111', {})).resolves.toEqual({ address: '2606:4700::1111', family: 6 });
  });

  it('refuses a host if any of its addresses is forbidden, even one the caller did not ask for', async () => {
    const lookup = dnsAnswers(null, [
      { address: '93.184.215.14', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ]);
    await expect(resolve(guardedLookup('live', strict), 'rebound.example.test', { family: 4 })).rejects.toMatchObject({
      code: 'EDESTINATIONFORBIDDEN',
      message: 'webhook destination rebound.example.test resolves to 10.1.2.3, a private address',
    });
    expect(lookup).toHaveBeenCalledWith('rebound.example.test', { family: 4, all: true }, expect.any(Function));
  });

  it('passes on a failed resolution', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND gone.example.test'), { code: 'ENOTFOUND' });
    dnsAnswers(notFound);
    await expect(resolve(guardedLookup('live', strict), 'gone.example.test', {})).rejects.toBe(notFound);
  });

  it('fits http.request: the request fails before connecting', async () => {
    const failure = await new Promise<NodeJS.ErrnoException>((done) =>
      get('http://localhost:9/hooks', { agent: false, lookup: guardedLookup('live', strict) }, () => done(new Error('connected'))).on('error', done),
    );
    expect(failure).toMatchObject({ code: 'EDESTINATIONFORBIDDEN' });
  });
});
