/**
 * The distinct values sent for the header `name`, in the order sent. Node joins repeated headers
 * of most names into one value with ", " (x-api-key, Idempotency-Key) and keeps only the first of
 * some (Authorization), so what a request repeated is read from its raw headers.
 */
export function headerValues(rawHeaders: readonly string[], name: string): string[] {
  const values = new Set<string>();
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === name) values.add(rawHeaders[index + 1]!.trim());
  }
  return [...values];
}
