export { createOmpRpcAdapter, OmpRpcExecutionAdapter } from './omp-rpc-adapter.js';
export { OMP_RPC_CONTINUATION_KIND } from './omp-rpc-protocol.js';
export { OMP_RPC_BACKEND_ID, type OmpApprovalMode, type OmpProviderOptions, type OmpRpcAdapterOptions } from './omp-rpc-options.js';
