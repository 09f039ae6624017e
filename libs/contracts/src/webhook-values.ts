/** Values that the webhooks service's gRPC messages carry as strings; it enforces them, the gateway documents them. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Disabled: nothing is delivered to it. */
export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;

/** Why an endpoint is disabled: a PATCH asked for it, or every attempt failed for too long. */
export const ENDPOINT_DISABLED_REASONS = ['by_request', 'failing'] as const;
export type EndpointDisabledReason = (typeof ENDPOINT_DISABLED_REASONS)[number];
