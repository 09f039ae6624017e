export * from './run-service';
export * from './endpoints';
export * from './background-start';
