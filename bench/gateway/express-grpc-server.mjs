// Floor baseline, front end: Express 5 with one route that makes one unary gRPC call to the echo
// server (port in argv) and sends its bytes as JSON; the least a gateway → service read can cost
// with this stack. Prints its port once listening.
import express from 'express';
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import { rawUnary } from '../support/raw-unary-definition.mjs';

const EchoClient = makeGenericClientConstructor(rawUnary, 'Echo');
const client = new EchoClient(`127.0.0.1:${process.argv[2]}`, credentials.createInsecure());
const request = Buffer.from('{}');
const app = express();
app.get('/', (_request, response) => {
  client.call(request, (error, reply) => {
    if (error) response.status(502).json({ error: error.message });
    else response.type('application/json').send(reply);
  });
});
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
