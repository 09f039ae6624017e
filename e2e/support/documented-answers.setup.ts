import { undocumentedAnswers } from './documented-answers';

// Every answer a test file's calls got is one the OpenAPI document describes for that operation:
// a success body its schema refuses, or a refusal the document does not list, fails the file.
afterAll(() => {
  expect(undocumentedAnswers()).toEqual([]);
});
