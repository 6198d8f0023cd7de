export * from './constants.ts';
export * from './refinements.ts';
export * from './schemas.ts';
export * as shapes from './shapes.ts';
export * as controls from './sandbox-controls.ts';
export * from './profile.ts';
export * from './endpoints.ts';
export * from './requirements.ts';
export { NOT_SHOWN } from './not-shown.ts';
