import type { DeliveryStatus } from '@ticketing/contracts';

/** A delivery the dispatcher has claimed: due, and leased to it until its attempt's deadline has passed. */
export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  notification_id: string;
  attempt_count: number;
}

/** A delivery as the log shows it, with its attempts oldest first. */
export interface LoggedDelivery {
  id: string;
  mode: string;
  endpoint_id: string;
  notification_id: string;
  type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  created_at: Date;
  attempts: LoggedAttempt[];
}

export interface LoggedAttempt {
  attempted_at: Date;
  http_status: number | null;
  latency_ms: number;
  succeeded: boolean;
  error: string | null;
  response_body: string | null;
}

/** What the log can be filtered by; absent means any. */
export interface DeliveryFilters {
  endpoint_id?: string;
  status?: DeliveryStatus;
  type?: string;
}

/** What one attempt did to its delivery. */
export interface AttemptRecord {
  attemptedAt: Date;
  status: number | null;
  latencyMs: number;
  succeeded: boolean;
  error: string | null;
  responseBody: string | null;
  /** When to try again; null when the delivery ends with this attempt. */
  nextAttemptAt: Date | null;
}

/** The body of a delivery, as the receiver gets it: the notification's id is also its `webhook-id`. */
export interface WebhookPayload {
  id: string;
  type: string;
  created_at: string;
  livemode: boolean;
  data: unknown;
}
