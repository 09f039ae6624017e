/** Values that catalog's gRPC messages carry as strings; catalog enforces them, the gateway documents them. */
export const EVENT_STATUSES = ['draft', 'published', 'canceled', 'completed'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const SEAT_STATUSES = ['available', 'held', 'sold'] as const;
export type SeatStatus = (typeof SEAT_STATUSES)[number];
