export * from './run-service';
export * from './endpoints';
