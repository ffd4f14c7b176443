// The cross-runtime scenarios in workerd: POST { command: 'scenarios' | 'resume', … } → JSON.
import { resumeAll, runScenarios } from './scenarios.mjs';

export default {
  async fetch(request) {
    const body = await request.json();
    const commands = { scenarios: runScenarios, resume: resumeAll };
    return Response.json(await commands[body.command](body));
  },
};
