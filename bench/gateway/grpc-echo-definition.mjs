// The floor baselines' one gRPC method: raw bytes both ways, so no serialization cost is added.
const bytes = (buffer) => buffer;

export const unaryEcho = {
  get: {
    path: '/bench.Echo/Get',
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  },
};
