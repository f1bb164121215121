/**
 * The workflows module's face (electron/core/workflows/): ComfyUI workflows the user imported,
 * each a model of that provider, one checked file each in the data folder (`WorkflowBook`).
 */
export { WorkflowBook, WorkflowNameError, WorkflowSaveError } from './workflow-book';
export { readWorkflowFile, saveMappedWorkflow } from './workflow-import';
