// The floor baselines' one gRPC method (grpc-js, no protobuf, no interceptors): raw bytes both
// ways, so no serialization cost is added.
const bytes = (buffer) => buffer;

export const rawUnary = {
  call: {
    path: '/bench.Raw/Call',
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  },
};
