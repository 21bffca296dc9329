"""What an agent is answered where the answer spans the apps: composed here, above failures,
lessons and outcomes, which none of them imports."""
