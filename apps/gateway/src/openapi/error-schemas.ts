import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { ERROR_CODES, paramStatusOf, type ErrorCode, type ErrorType } from '@ticketing/errors';

const ALL_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

function envelope(id: string, codes: readonly ErrorCode[], description: string) {
  const types = [...new Set(codes.map((code): ErrorType => ERROR_CODES[code].type))];
  return z
    .object({
      error: z.object({
        type: z.enum(types).meta({ description: 'The category of the error.' }),
        code: z.enum(codes).meta({ description: 'Stable snake_case machine code to branch on.' }),
        message: z.string().meta({ description: 'What went wrong and what to do, for a person.' }),
        param: z.string().optional().meta({ description: 'The request parameter at fault, e.g. scopes[1].' }),
        request_id: z.string().meta({ description: 'Equals the Request-Id response header.', example: 'req_01JD3WC8E0G2J4L6N8Q0S2U4W6' }),
      }),
    })
    .meta({ id, description });
}

/** The envelope with every code there is: what `default` answers. */
export const errorEnvelope = envelope('Error', ALL_CODES, 'Every error answers this envelope.');

/** `409` → `ConflictError`: the schema name clients generate a type from. */
const schemaName = (status: number) => `${(STATUS_CODES[status] ?? `Status ${status}`).replace(/[^A-Za-z]/g, '')}Error`;

const statusesOf = (code: ErrorCode): number[] => [...new Set([ERROR_CODES[code].status, paramStatusOf(code)])];

/**
 * One envelope per HTTP status, its `code` an enum of the codes that status can carry. Per
 * status rather than per operation: one named type per status is what clients can use, and
 * each operation's response description names its own codes.
 */
const envelopesByStatus = new Map(
  [...new Set(ALL_CODES.flatMap(statusesOf))].map((status) => [
    status,
    envelope(schemaName(status), ALL_CODES.filter((code) => statusesOf(code).includes(status)), `An error answered with HTTP ${status}.`),
  ]),
);

export function errorEnvelopeFor(status: number): ReturnType<typeof envelope> {
  const schema = envelopesByStatus.get(status);
  if (!schema) throw new Error(`No error code answers HTTP ${status}.`);
  return schema;
}
