import { undocumentedAnswers } from './documented-errors';

// Every error a test file's calls were answered with is one the OpenAPI document lists for that
// operation and status: a refusal the document does not mention fails the file.
afterAll(() => {
  expect(undocumentedAnswers()).toEqual([]);
});
