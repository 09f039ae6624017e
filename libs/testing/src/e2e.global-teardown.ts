export default async function e2eGlobalTeardown(): Promise<void> {}
