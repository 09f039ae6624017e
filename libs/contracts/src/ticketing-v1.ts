// ticketing.v1 spans one .proto file per aggregate; callers see one namespace.
export * from './generated/ticketing/v1/customers';
export * from './generated/ticketing/v1/tickets';
export * from './generated/ticketing/v1/seat_holds';
export * from './generated/ticketing/v1/waiting_room';
