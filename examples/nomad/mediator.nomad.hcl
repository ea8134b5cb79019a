# The mediator as a Nomad service job, deployed by ../deploy-nomad.yml.
#
# The gateway token is in neither this file nor the job's variables (both are stored
# with the job, where `nomad job inspect` shows them). The workflow puts it in the Nomad
# variable nomad/jobs/mediator, which only this job's tasks can read, and the template
# below hands it to the container as an environment variable.

variable "image" {
  type        = string
  description = "Your platform's mediator image."
  default     = "platform/mediator:latest"
}

job "mediator" {
  type = "service"

  group "mediator" {
    count = 1

    task "mediator" {
      driver = "docker"

      config {
        image = var.image
      }

      # The mediator reads <SERVICE>_GATEWAY_TOKEN: replace YOURSERVICE with the
      # platform's name in upper case.
      template {
        data        = <<-EOT
          {{ with nomadVar "nomad/jobs/mediator" }}YOURSERVICE_GATEWAY_TOKEN={{ .gateway_token }}{{ end }}
        EOT
        destination = "secrets/gateway.env"
        env         = true
        change_mode = "restart"
      }

      resources {
        cpu    = 200
        memory = 256
      }
    }
  }
}
