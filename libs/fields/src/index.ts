export * from './fields';
export * from './id-param';
