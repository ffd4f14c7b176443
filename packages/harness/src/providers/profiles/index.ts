export { parseProviderProfiles, DEFAULT_PROFILE_MAX_INPUT_BYTES } from './parse-provider-profiles.js';
export { inspectProviderProfile } from './inspect-provider-profile.js';
export { createModelFromProfile } from './create-model-from-profile.js';
export { PROVIDER_PROTOCOLS, normalizeProviderProtocol, type ProviderProtocol } from './provider-protocols.js';
export type {
  CreateModelFromProfileOptions,
  ProfileModel,
  InspectProviderProfileOptions,
  ProviderProfile,
  ProviderProfileInspection,
  ProviderProfileReceipt,
  ProviderProfileSet,
  ProviderSecretSource,
} from './provider-profile-types.js';
