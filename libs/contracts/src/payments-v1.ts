// payments.v1 spans one .proto file per aggregate; callers see one namespace.
export * from './generated/payments/v1/payment_intents';
export * from './generated/payments/v1/payments';
export * from './generated/payments/v1/payouts';
