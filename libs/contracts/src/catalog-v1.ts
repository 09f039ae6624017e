// catalog.v1 spans one .proto file per aggregate; callers see one namespace.
export * from './generated/catalog/v1/events';
