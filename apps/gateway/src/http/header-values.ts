/**
 * Every value sent for the header `name` (lower case), in the order sent, one per header line.
 * Node joins repeated headers of most names into one value with ", " (x-api-key,
 * Idempotency-Key) and keeps only the first of some (Authorization, Host), so what a request
 * repeated is read from its raw headers.
 */
export function headerLines(rawHeaders: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === name) values.push(rawHeaders[index + 1]!.trim());
  }
  return values;
}

/** The distinct values sent for the header `name` (lower case), in the order first sent. */
export function headerValues(rawHeaders: readonly string[], name: string): string[] {
  return [...new Set(headerLines(rawHeaders, name))];
}
