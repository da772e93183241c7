import type { AreaModule } from '../../core/command.js';
import { controlCommands } from './control.js';
import { startCommand } from './start.js';

export const area: AreaModule = { commands: [startCommand, ...controlCommands] };
