export * from './envelope';
export * from './catalog.events';
