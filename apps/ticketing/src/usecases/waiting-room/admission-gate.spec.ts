import type { Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import type { AdmissionTokens } from '../../waiting-room/admission-tokens';
import type { QueueStore } from '../../waiting-room/queue-store';
import { AdmissionGate } from './admission-gate';

const tenant: Tenant = { accountId: 'acct_01JD3W9ZQ4X8V5K2M7N6P1R0ST', mode: 'test' };

/** A database whose event-settings reads the test answers when it chooses, counting them. */
function slowSettings() {
  const answers: Array<() => void> = [];
  const findUnique = jest.fn(
    () =>
      new Promise((resolve) => {
        answers.push(() => resolve({ event_id: 'evt', status: 'published', waiting_room_enabled: false, admission_rate_per_minute: 0 }));
      }),
  );
  const prisma = { eventSettings: { findUnique } } as unknown as PrismaClient;
  return { prisma, findUnique, answerAll: () => answers.splice(0).forEach((answer) => answer()) };
}

describe('AdmissionGate', () => {
  it('reads an event’s setting once for all the sales that ask while the read runs, and again for another event', async () => {
    const settings = slowSettings();
    const gate = new AdmissionGate(settings.prisma, {} as AdmissionTokens, {} as QueueStore);

    // With the room read as disabled, a sale without a token passes the screen, and needs no admission.
    const admitted = async (eventId: string) => (await gate.screen(tenant, eventId, '')).settle(false);
    const rush = Array.from({ length: 20 }, () => admitted('evt_A'));
    const other = admitted('evt_B');
    await Promise.resolve();
    settings.answerAll();

    await expect(Promise.all(rush)).resolves.toEqual(Array(20).fill(null));
    await expect(other).resolves.toBeNull();
    expect(settings.findUnique).toHaveBeenCalledTimes(2);
  });
});
