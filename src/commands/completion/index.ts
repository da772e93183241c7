import type { AreaModule } from '../../core/command.js';
import { UsageError } from '../../core/errors.js';

export const area: AreaModule = {
  commands: [
    {
      path: ['completion'],
      summary: 'Print the shell completion script (bash, zsh or fish)',
      description: 'Completes commands, flags and enum values. The scripts are also checked in under completions/.',
      examples: ['crmctl completion bash > ~/.local/share/bash-completion/completions/crmctl', 'crmctl completion zsh > "${fpath[1]}/_crmctl"', 'crmctl completion fish > ~/.config/fish/completions/crmctl.fish'],
      args: [{ name: 'shell', description: 'bash, zsh or fish', required: true }],
      async run(ctx, { args, program }) {
        const { SHELLS, completionScript } = await import('../../completion/generate.js');
        const shell = args[0] as (typeof SHELLS)[number];
        if (!SHELLS.includes(shell)) throw new UsageError(`<shell>: must be one of ${SHELLS.join(', ')} (got "${args[0]}")`);
        ctx.io.stdout.write(completionScript(shell, await program.commandTree()));
      },
    },
  ],
};
