// `toolnorm/acp`: ACP v1 session/update frames out of parts, and parts back out of frames.
export { AcpEncoder, encodeParts, type AcpEncoderOptions, type AcpFrame } from './encoder.js';
export { AcpV2Translator, encodePartsV2, type AcpV2Frame } from './encoder-v2.js';
export { gitPatch } from './git-patch.js';
export { decodeFrames, type Decoded } from './decode.js';
export { ACP_KIND_OF, TOOL_KIND_OF } from './kinds.js';
