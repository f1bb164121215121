/**
 * The credentials module (electron/core/credentials/), its face: the one file other modules and the
 * fronts import from it. Which key goes to which service address.
 */
export { bindLegacyKey } from './legacy-key-binding';
export {
  IMPORTED_LOCAL_SENTENCE,
  credentialsForRecord,
  importedLocalMessage,
  isImportedLocal,
} from './record-credentials';
export { serviceAddress, servicesAt, sharedAddress } from './service-addresses';
