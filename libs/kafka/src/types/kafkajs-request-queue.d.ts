// kafkajs ships no types for its internal modules; request-queue-idle-fix.ts patches this one.
declare module 'kafkajs/src/network/requestQueue' {
  const RequestQueue: { prototype: object };
  export default RequestQueue;
}
