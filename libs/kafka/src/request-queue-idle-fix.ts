// kafkajs 2.2.4 (its last release) re-arms a timer every millisecond on each broker connection
// while no request is waiting: RequestQueue.scheduleCheckPendingRequests computes a negative
// delay when nothing is throttled and schedules itself anyway (kafkajs issue #1556, fix proposed
// in pull request #1667, never merged). An idle consumer spent ~30 ms of CPU per second on it.
// This replaces that one method with the proposed fix: a check is scheduled only while requests
// wait, at the end of the broker's throttle or after the usual 10 ms. A request pushed later
// schedules its own check, and a fulfilled one checks the queue at once, as before.
import RequestQueue from 'kafkajs/src/network/requestQueue';

const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

interface RequestQueueState {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
}

function scheduleCheckPendingRequests(this: RequestQueueState): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const untilThrottleEnds = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    untilThrottleEnds > 0 ? untilThrottleEnds : CHECK_PENDING_REQUESTS_INTERVAL_MS,
  );
}

(RequestQueue.prototype as unknown as RequestQueueState & { scheduleCheckPendingRequests: typeof scheduleCheckPendingRequests }).scheduleCheckPendingRequests =
  scheduleCheckPendingRequests;
