// Sale floor, last hop: a gRPC server whose one method holds a batch's units (the request is
// their number) with the sale's conditional update on the hot row, one statement per batch (pg,
// a pool of ten as the services have). Argv: the database URL. Prints its port once listening.
import { Server, ServerCredentials } from '@grpc/grpc-js';
import pg from 'pg';
import { rawUnary } from '../../support/raw-unary-definition.mjs';

const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
const [held, soldOut] = [Buffer.from('{"held":true}'), Buffer.from('{"held":false}')];
const server = new Server();
server.addService(rawUnary, {
  call: (call, callback) => {
    const units = Number(call.request.toString());
    pool.query('UPDATE bench_tiers SET held = held + $1 WHERE id = 1 AND held + sold + $1 <= capacity', [units]).then(
      (result) => callback(null, result.rowCount === 1 ? held : soldOut),
      (error) => callback(error),
    );
  },
});
server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  console.log(port);
});
process.on('SIGTERM', () => server.tryShutdown(() => pool.end().then(() => process.exit(0))));
