// `toolnorm/acp`: ACP v1 session/update frames out of parts, and parts back out of frames.
export { AcpEncoder, encodeParts, type AcpEncoderOptions, type AcpFrame } from './encoder.js';
export { decodeFrames, type Decoded } from './decode.js';
export { ACP_KIND_OF, TOOL_KIND_OF } from './kinds.js';
