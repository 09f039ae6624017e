import { parseAdminCommand, UsageError } from './admin-command';

describe('admin command line', () => {
  it('reads the two account commands', () => {
    expect(parseAdminCommand(['account', 'create', '--name', 'Acme Events'])).toEqual({ command: 'account create', name: 'Acme Events' });
    expect(parseAdminCommand(['account', 'create', '--name=Acme'])).toEqual({ command: 'account create', name: 'Acme' });
    expect(parseAdminCommand(['account', 'activate-live', '--account', 'acct_1'])).toEqual({ command: 'account activate-live', accountId: 'acct_1' });
    expect(parseAdminCommand(['account', 'set-rate-limit', '--account', 'acct_1', '--per-second', '500'])).toEqual({
      command: 'account set-rate-limit',
      accountId: 'acct_1',
      perSecond: 500,
    });
    expect(parseAdminCommand(['account', 'set-rate-limit', '--account', 'acct_1', '--per-second', 'default'])).toMatchObject({ perSecond: null });
    expect(parseAdminCommand(['--help'])).toEqual({ command: 'help' });
  });

  it.each([
    [[]],
    [['account']],
    [['account', 'delete']],
    [['account', 'create']],
    [['account', 'create', '--name']],
    [['account', 'create', '--name', 'x', '--account', 'acct_1']],
    [['account', 'create', '--name', 'x', '--colour', 'red']],
    [['account', 'activate-live']],
    [['account', 'activate-live', '--account', '']],
    [['account', 'activate-live', '--account', 'acct_1', '--per-second', '5']],
    [['account', 'set-rate-limit', '--account', 'acct_1']],
    [['account', 'set-rate-limit', '--per-second', '5']],
    [['account', 'set-rate-limit', '--account', 'acct_1', '--per-second', '1.5']],
    [['account', 'set-rate-limit', '--account', 'acct_1', '--per-second', 'lots']],
    [['account', 'set-rate-limit', '--account', 'acct_1', '--per-second', '5', '--name', 'x']],
  ])('refuses %j as a usage error', (argv) => {
    expect(() => parseAdminCommand(argv)).toThrow(UsageError);
  });
});
