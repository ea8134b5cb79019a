// The main step of check-post-step does nothing: post.mjs checks, at the end of the job.
process.stdout.write("This check runs in its post step, after the action's own post step.\n")
