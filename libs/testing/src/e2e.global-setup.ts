export default async function e2eGlobalSetup(): Promise<void> {}
