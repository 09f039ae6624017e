// webhooks.v1 spans one .proto file per aggregate; callers see one namespace.
export * from './generated/webhooks/v1/endpoints';
export * from './generated/webhooks/v1/deliveries';
