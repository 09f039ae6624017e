import { z } from 'zod';

/** An array whose items must be distinct; a repeat is reported at its own index (`scopes[2]`). */
export function uniqueItems<TItem extends z.ZodType>(item: TItem) {
  return z.array(item).superRefine((values, context) => {
    values.forEach((value, index) => {
      if (values.indexOf(value) !== index) {
        context.addIssue({ code: 'custom', message: `${JSON.stringify(value)} appears more than once`, path: [index], input: value });
      }
    });
  });
}
