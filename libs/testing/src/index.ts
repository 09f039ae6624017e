export * from './wait-for';
export * from './test-database';
