// Sale floor, front: Express 5 with JSON bodies and the issuance route, passing each body to the
// middle hop (port in argv) over gRPC, one call per request as the gateway does, and answering 201
// with its reply. With the two hops behind it, the least a sale shaped as ours can cost with this
// stack: no authentication, limits, validation, records, codes, events or logs. Prints its port
// once listening.
import express from 'express';
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import { rawUnary } from '../../support/raw-unary-definition.mjs';

const Client = makeGenericClientConstructor(rawUnary, 'Raw');
const ticketing = new Client(`127.0.0.1:${process.argv[2]}`, credentials.createInsecure());
const app = express();
app.use(express.json());
app.post('/v1/events/:id/tickets', (request, response) => {
  ticketing.call(Buffer.from(JSON.stringify({ event_id: request.params.id, ...request.body })), (error, reply) => {
    if (error) response.status(502).json({ error: error.message });
    else response.status(201).type('application/json').send(reply);
  });
});
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
