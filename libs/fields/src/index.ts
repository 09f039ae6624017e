export * from './fields';
export * from './id-param';
export * from './unstorable-text';
export * from './metadata';
