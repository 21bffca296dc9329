"""Blind test corpus for the credential scrubber: SECRETS must vanish, LOOKALIKES must survive.

Every value is fake, generated with the shape of the published formats (gitleaks default
rules, detect-secrets plugins, GitHub secret-scanning patterns); written without reading the
scrubber or its rules."""

# SECRETS: (name, source, text) -- each text holds exactly one credential, and
# SECRET_VALUES[name] is the substring of text that must not survive scrubbing.
# GitHub-style tokens deliberately carry no valid CRC32 checksum (fake by construction).
SECRETS: list[tuple[str, str, str]] = [
    # --- cloud -----------------------------------------------------------------------------------
    (
        "aws_access_key_id_in_sigv4_debug_log",
        "gitleaks:aws-access-token",
        "DEBUG botocore.auth: Calculating signature using v4 auth. "
        "Credential=AKIALUR3GTATKZNMS7YT/20240517/us-east-1/sts/aws4_request",
    ),
    (
        "aws_secret_on_line_after_key_id",
        "aws docs: shared credentials file",
        "[default]\n"
        "aws_access_key_id = AKIA7DYL3MRC6N6PYSJQ\n"
        "aws_secret_access_key = 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\n"
        "region = eu-west-1",
    ),
    (
        "aws_secret_access_key_env",
        "aws docs: AWS_SECRET_ACCESS_KEY (40 chars)",
        "AWS_SECRET_ACCESS_KEY=xEYg7N57yfQEKfMHR16OQQUKWPoiE2pj75Exsig1",
    ),
    (
        "aws_secret_in_boto3_traceback",
        "gitleaks:generic-api-key / aws docs",
        '  File "/srv/jobs/sync_exports.py", line 41, in <module>\n'
        '    s3 = boto3.client("s3", region_name="us-east-1", '
        'aws_secret_access_key="8NvNLAqYaso6TKls9z47AUUAz1YF7SJ0d+4Ho72I")',
    ),
    (
        "aws_asia_temporary_key_id_export",
        "gitleaks:aws-access-token",
        "export AWS_ACCESS_KEY_ID=ASIALWVD336UOJD7TKZF",
    ),
    (
        "aws_session_token_credentials_file",
        "aws docs: STS temporary credentials",
        "aws_session_token = IQoJb3JpZ2luX2VjEHnKmtEK7HYRJn8EN/OiA+uPBrhPwSDUSdp9xRC/npwKOnvx0adE69zIKGusn72GGiNGUELFCDvHayhQoYAbER8pPHJzZbOX5lbAv1DVfZsOsOHdoWBP2n1xIA00rik6+hORrbkaOAQo9T3ChawwabGDOhwS1IKhkqynm8naYOKLjGObbWOJb5sICcJujp13BEhTM8peFZ1rN/lCkvu8fZFM1Fc3bkMoeqxYpFbrwVarj54AwiGN04PoHjMpZaqAOdGZHFha5ONMcXAZeTrHgMaFejuXQUr3jzTxhH90ZrYoDANlE65DOI/AAqkR7/DGcAFbGaiZtKCgA1etG5fCaO/g50aLw4q1zBcHx3HUKdUztqJtYtKyuM6Y1QRsbXg18Vf5HPrhQFKZyaxlQ7iZHKFYVIwwQ4G5nBxBiKIT0rd3KNqy6iIJOEDFAL3AMaoGBhh4s36PhkBoZLXV64INrsVLUdJ2QVfHAg9Nm17T2oah3KsunzK8oYadQBMy2bG2hprLBFebgX1SyLCYh9d2Udg0aN8glt2NyxNY9FBfj4SB8305wQ==",
    ),
    (
        "aws_session_token_sts_json",
        "aws docs: sts assume-role output",
        '        "SessionToken": "FwoGZXIvYXdzEJk3KcvhPGNrbSXMKLvkHbBibWTQ44x6dP4iZ9uyqF0IB2y2jCol/9tT9WboYveC/5QjVCjw+tCZxI6dY+Jn0doFlbU0aHb95FW2Add/HiP2iOIAaOra+wUaji4SZCBezul5cgyjobnGbnT9gmZn5HbG3E2YzJX/2TemL8hFk8wz7VP6CoOgDDchhjVa6PdGdPjSppE1lNigLxhwxpR0GU+plrZB7SiNTTp673i7WYEWuefa1pmH4v+kFclXcuvUE74qaYDP7OJyWPR0S1um1z+jIU+QbfJG/flQ0DHEuLebGqjTpqTuCfKCUjIFxhmBSdxKWLFlye6V38HM/0dJAuBTyT4F",',
    ),
    (
        "aws_bedrock_long_lived_api_key",
        "gitleaks:aws-amazon-bedrock-api-key-long-lived",
        "export AWS_BEARER_TOKEN_BEDROCK=ABSKQmVkcm9ja0FQSUtleS16NWNnLWF0LTEwMTU1Mzg0ODgwNDoyQ1p6c1Z4aFVuVU02WXV4cVZWLzBDemZMaTEyZm5XZTh4WGF1YzB4NkxTbmQxc3hZVTgrL1BGSktOQy8=",
    ),
    (
        "gcp_service_account_private_key_id",
        "gcp docs: service account key JSON",
        '  "private_key_id": "8733a17648303aed99dfd40c031eac1f99c3447e",',
    ),
    (
        "gcp_service_account_private_key_json_escaped",
        "gitleaks:private-key / gcp docs",
        '{"type": "service_account", "project_id": "acme-prod-381205", "private_key": '
        '"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDBNf5QBMNGCBHg\\nx6js4zrfy5UWcY5v3GpSuisgH9dBVF2LxApBN6fvBVVKXRU6IRkRpGZy+e5YspT+\\nPZvYs7GP5oHk9hqmw/NT9nKJZ1DQ4/qvhb1IoLyydqSAGrng9WNfMBppiwKnmowF\\nlhHULCukjRT6QH6Vqn1uLpBC7xosl/Qkp1m5zFfYFL2wF6TDgIpBb0fU93RrMIai\\nyUOo+CE+f6lpmPUboE6orAKjPFoIvhc6foW/eovrTkEZqgXbGticr/iPUYDfxh8U\\nNlP8+GfL43fbFO0HkJczuEjLRHB9qRLuXLK0DoR8ZKfR/07v6Q3+YR1LYFSDG9hQ\\n+qvnD9JhAgMBAAECggEApv0XvgPy+2xpX4cMlDFkIdufwt26DeZ3KI5TcVxLSiFH\\ndYY2KwXNhyQXrxSSkZ32PaO5i3Shgf7s7pNG4YjpStaEzuZ17i/8i7J6GvIW8AgC\\n-----END '
        'PRIVATE KEY-----\\n", "client_email": "etl@acme-prod-381205.iam.gserviceaccount.com"}',
    ),
    (
        "gcp_api_key_in_maps_url",
        "gitleaks:gcp-api-key",
        "GET https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=AIza5QJPjKq2rh7QrYJ0UhtN57PVKQSbokUHkJd "
        "-> 403",
    ),
    (
        "gcp_oauth_client_secret_json",
        "github-secret-scanning:Google OAuth Client Secret",
        '{"installed": {"client_id": "48213.apps.googleusercontent.com", "client_secret": '
        '"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"}}',
    ),
    (
        "gcp_oauth_access_token_bearer",
        "github-secret-scanning:Google OAuth Access Token",
        "Authorization: Bearer ya29.a0AfB_bykKHXvQZ_YlECwVM6R0vR-BrmsQr_FHndJArHQAit5DaxWCRZGaXCcDw-uQsjmyR2RPDsqELOajK_dWQXO5A00-VPSHgmHGWjKwQ-0IW3K-j6_Sfxh47-HuQQm2hjv_ZGHHpOcyYr-srtvf5pulW0zqIB2JNFvJtv",
    ),
    (
        "gcp_oauth_refresh_token_json",
        "github-secret-scanning:Google OAuth Refresh Token",
        '  "refresh_token": "1//0g68FqIVAc_EzfCkYcMrOqCNel85hp1nZ1bB_aYg4QVTd3QwMjIvt7rboXpPtOH0AsxpkO-Jj6zbmdZTuMSpLGhwd2N_4olg0VO3",',
    ),
    (
        "azure_storage_connection_string",
        "detect-secrets:AzureStorageKeyDetector",
        "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmeprodlogs;AccountKey=xTuGkA9fDIL5QUZZTQ7YzmDHialo8QpW05ueCxWZkUQQEXNpq+6Yna4TXK78URxTsBS+qYCJBFua4dCfbecjYg==;EndpointSuffix=core.windows.net",
    ),
    (
        "azure_sas_token_sig_in_blob_url",
        "github-secret-scanning:Azure SAS Token",
        "GET https://acmeprodlogs.blob.core.windows.net/exports/run-42.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2024-06-01T00:00:00Z&st=2024-05-01T00:00:00Z&spr=https&sig=sg70AKr%2BvKej71ORdiI2A5TkvWH%2BPDmFqhXMrA3Qr2c%3D "
        "-> 403 AuthenticationFailed",
    ),
    (
        "azure_ad_client_secret_env",
        "gitleaks:azure-ad-client-secret",
        'AZURE_CLIENT_SECRET="yWl7Q~42i3i1U71.kRjae0wuZSlPdrA~0At6c_k~"',
    ),
    (
        "azure_ad_client_secret_appsettings_json",
        "gitleaks:azure-ad-client-secret",
        '    "ClientSecret": "EU05Q~lSf130leKmljRTN~HeHpNs~24zftqva6Zv",',
    ),
    (
        "azure_service_bus_connection_string",
        "github-secret-scanning:Azure Service Bus Connection String",
        "Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=gnhgAfz6vlR4gC8WEo4+QslGkG+ry2WInIXHXSTV5m4=",
    ),
    (
        "azure_cosmosdb_identifiable_key",
        "github-secret-scanning:Azure Cosmos DB Key",
        "AccountEndpoint=https://acme-cosmos.documents.azure.com:443/;AccountKey=iPHHDXiocgeBxcJME4GPqDW7LVuTnVQj4ZCkgt7PuGFrKoYmwvFf42DgxxzKXFtvSttxPJ15rj9dACDboPqjIJ==;",
    ),
    (
        "azure_devops_pat_in_clone_url",
        "github-secret-scanning:Azure DevOps Personal Access Token",
        "git clone https://build:zeg7he6dhxjtf7iriijkof363k3bbimnzkytpuepb6vuvuns4gkw@dev.azure.com/acme/Platform/_git/infra",
    ),
    (
        "azure_openai_api_key_env",
        "azure openai docs: api-key",
        "AZURE_OPENAI_API_KEY=c0100ac74a0422c964b7e56b97829874",
    ),
    (
        "azure_function_key_query",
        "azure functions docs: function access keys",
        "POST https://acme-ingest.azurewebsites.net/api/ingest?code=gLYLuFzgpzMuy1dJidKc1Zt7Offb29CSFHpgKX4db6guAzFuzpeRt4== "
        "returned 500",
    ),
    (
        "digitalocean_pat_doctl",
        "gitleaks:digitalocean-pat",
        "$ doctl auth init --access-token "
        "dop_v1_8355e896a171da20ba101b7dd35b69281d7d38014c1e62923a925b6773b44530",
    ),
    (
        "digitalocean_oauth_token_json",
        "gitleaks:digitalocean-access-token",
        '{"access_token":"doo_v1_f9e06c13be95601b3f577e449d004e68c567c6ba5d1f9854828419e2175c1b72","token_type":"bearer","expires_in":2592000}',
    ),
    (
        "digitalocean_refresh_token",
        "gitleaks:digitalocean-refresh-token",
        "refresh_token=dor_v1_b6545349bd3be717d864cef794ba92bd90af4f97ccc685fb60cb1c091421467d",
    ),
    (
        "alibaba_access_key_id_env",
        "gitleaks:alibaba-access-key-id",
        "ALIBABA_CLOUD_ACCESS_KEY_ID=LTAIC2qdoyUUERMt7jskXGje",
    ),
    (
        "alibaba_access_key_secret_ini",
        "alibaba cloud docs: AccessKey secret (30 chars)",
        "alibaba_cloud_access_key_secret = nCdo9Iwk7McOo6sC93WniIZnfVlTXv",
    ),
    (
        "ibm_cloud_iam_api_key_cli",
        "detect-secrets:IbmCloudIamDetector",
        "ibmcloud login --apikey 5p3TiYks6N7WhhjbxzZYhZqGXmevwgQcf1M5mIHZL__L -r us-south",
    ),
    (
        "ibm_cos_hmac_secret",
        "detect-secrets:IbmCosHmacDetector",
        '  "cos_hmac_keys": {"access_key_id": "a1b2", "secret_access_key": '
        '"7f1a41fed7ba574afd11112cd2ca60288f439797235fde2a"}',
    ),
    (
        "oracle_ocir_auth_token_docker_login",
        "oracle oci docs: auth tokens for OCIR",
        "docker login iad.ocir.io -u 'acmecorp/jane@acme.io' -p 'i2dzZ4Zg#inY(foyh;UJ'",
    ),
    (
        "oracle_oci_config_pass_phrase",
        "oracle oci docs: SDK config file",
        "[DEFAULT]\n"
        "user=ocid1.user.oc1..aaaa\n"
        "key_file=~/.oci/oci_api_key.pem\n"
        "pass_phrase=xrupOLEctm0K16!8wr",
    ),
    # --- vcs -------------------------------------------------------------------------------------
    (
        "github_pat_classic_in_push_url",
        "gitleaks:github-pat",
        "git push https://ghp_M4Tp2crGRr4AakusXjjLnVovihfvNAbBoj2X@github.com/acme/api.git "
        "HEAD:main",
    ),
    (
        "github_pat_classic_auth_header",
        "detect-secrets:GitHubTokenDetector",
        "curl -sS -H 'Authorization: token ghp_yfEpJn2NzbvXVcoUJlP1OsrnudDNS68oOqgy' "
        "https://api.github.com/repos/acme/api/actions/runs",
    ),
    (
        "github_oauth_token_gh_hosts_yml",
        "gitleaks:github-oauth",
        "github.com:\n"
        "    user: jdoe\n"
        "    oauth_token: gho_pNEzeVffetkVjzofA0EtcpJ1K6Jfc8SgMlYf\n"
        "    git_protocol: https",
    ),
    (
        "github_user_to_server_token_json",
        "gitleaks:github-app-token",
        '{"token": "ghu_rUOqr3aPxyw16ioc8ohxWiwmTp4LAwTZIsrn", "expires_at": '
        '"2024-05-17T12:00:00Z"}',
    ),
    (
        "github_installation_token_in_remote",
        "gitleaks:github-app-token",
        "fatal: unable to access 'https://x-access-token:ghs_upef2Ei94Dz1X3oJbyD72Lo09wBlZ2zSn2xv@github.com/acme/infra.git/': "
        "The requested URL returned error: 403",
    ),
    (
        "github_refresh_token_json",
        "gitleaks:github-refresh-token",
        '  "refresh_token": "ghr_Ix1WXl7qRDn9kEMdrHT2NJtE1pyEpxH99duc",',
    ),
    (
        "github_fine_grained_pat_env",
        "gitleaks:github-fine-grained-pat",
        "GITHUB_TOKEN=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",
    ),
    (
        "gitlab_pat_private_token_header",
        "gitleaks:gitlab-pat",
        'curl --header "PRIVATE-TOKEN: glpat-8y7LkrOQUL6FTRllaJBL" '
        '"https://gitlab.com/api/v4/projects?owned=true"',
    ),
    (
        "gitlab_pat_routable",
        "gitleaks:gitlab-pat-routable",
        "GITLAB_TOKEN=glpat-nWy1o8OnBvPiOl808DBvHQr13LOuKL1JJU_f.019yc32cz",
    ),
    (
        "gitlab_deploy_token_clone",
        "gitleaks:gitlab-deploy-token",
        "git clone "
        "https://gitlab+deploy-token-42:gldt-6f1mc9aHijmx0IbW1GHD@gitlab.com/acme/app.git",
    ),
    (
        "gitlab_runner_auth_token_toml",
        "gitleaks:gitlab-runner-authentication-token",
        '  token = "glrt-Bm93BJeZTHWwnt-xBEk8"',
    ),
    (
        "gitlab_pipeline_trigger_token",
        "gitleaks:gitlab-ptt",
        "curl -X POST --fail -F token=glptt-e24e7558c92d7b5c9da9ece16ed1832b0be8c754 -F "
        "ref=main https://gitlab.com/api/v4/projects/42/trigger/pipeline",
    ),
    (
        "gitlab_runner_registration_token",
        "gitleaks:gitlab-rrt",
        "gitlab-runner register --non-interactive --registration-token "
        "GR1348941ZEjd6UhFGWuW1jhJV-8a --executor docker",
    ),
    (
        "gitlab_ci_job_token",
        "gitleaks:gitlab-cicd-job-token",
        "CI_JOB_TOKEN=glcbt-64_mIAm_rA1esm_jnlQnZZR",
    ),
    (
        "bitbucket_app_password_remote",
        "github-secret-scanning:Atlassian Bitbucket",
        "git remote set-url origin "
        "https://jdoe:ATBBTbF5lpt2usR38byMiXbf9BQIJunbWpha50E4028C@bitbucket.org/acme/web.git",
    ),
    (
        "bitbucket_oauth_client_secret",
        "gitleaks:bitbucket-client-secret",
        "BITBUCKET_CLIENT_SECRET=Cwv1PDryS31DyPuLzYFZnLVhI3JBSvhPGRqQGykubK9SNjwyIbSsY3hagzk4C2Cg",
    ),
    (
        "gitea_access_token_header",
        "gitea docs: access tokens (40 hex)",
        'curl -H "Authorization: token c26ed2ce65eb75cf24a00ad60de7d4ccfebf2576" '
        "https://gitea.acme.internal/api/v1/user/repos",
    ),
    (
        "atlassian_api_token_jira_env",
        "gitleaks:atlassian-api-token",
        "JIRA_API_TOKEN=ATATT3xFfGF0PWe8NeFGtd9OL1so91PZyBQB4JdDQd52nCmoPFVDber__Tjp5BpnH78RqMmOH8jhsJGocs0x_RcfeAfEH2GiVnd249dMuvh5IwCE_QPCl_0CYaJ5MITc_HktMgTBAA3R77RfZOSpLX6--Bazo4Jl69a_T3LClSS-_se9ScaTaMC=05DB6F9F",
    ),
    # --- ai --------------------------------------------------------------------------------------
    (
        "openai_project_key_env",
        "gitleaks:openai-api-key",
        "OPENAI_API_KEY=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",
    ),
    (
        "openai_project_key_python_client",
        "detect-secrets:OpenAIDetector",
        'client = OpenAI(api_key="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")',
    ),
    (
        "openai_service_account_key",
        "gitleaks:openai-api-key",
        "export OPENAI_API_KEY='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'",
    ),
    (
        "openai_legacy_user_key",
        "gitleaks:openai-api-key",
        "openai.api_key = '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'",
    ),
    (
        "openai_admin_key_header",
        "gitleaks:openai-api-key",
        'curl https://api.openai.com/v1/organization/users -H "Authorization: Bearer '
        '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"',
    ),
    (
        "anthropic_api_key_curl_header",
        "gitleaks:anthropic-api-key",
        'curl https://api.anthropic.com/v1/messages -H "x-api-key: '
        'sk-ant-api03-1933Iu3YEAGjjNJ7STObEZLxkQv_TXm7mp1_wN2MF0Jinli94L1C5ggd_3PomNkUSlECpuxl8Dm0yJ8bV6F-b71zC1YVGAA" '
        '-H "anthropic-version: 2023-06-01"',
    ),
    (
        "anthropic_api_key_env",
        "github-secret-scanning:Anthropic API Key",
        "ANTHROPIC_API_KEY=sk-ant-api03-si5iFwZn1eX0RrGbPL_QOLnkZbkTuRxRWanCGm2eGk00ddks7Vc52pJhHmopZ3jnUC2Z4hjSe5_j7Y0uco0EldD3VI0SBAA",
    ),
    (
        "anthropic_admin_key",
        "gitleaks:anthropic-admin-api-key",
        '{"admin_key": "sk-ant-admin01-p5rLiDyAxVKbPdsjCDCxjum2NyNtD75YLbLN9uEK2qrahvbJy4LTc_iU9ra2fcL3n5wAfIEH3svv6cs05ZfrWwEF5MIKrAA"}',
    ),
    (
        "cohere_api_key_env",
        "gitleaks:cohere-api-token",
        "CO_API_KEY=2KxBz5Jq2CK4ovBIiL2863EXbgJN4Mzb09Ll0jPp",
    ),
    (
        "huggingface_token_cli_login",
        "gitleaks:huggingface-access-token",
        "huggingface-cli login --token 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 "
        "--add-to-git-credential",
    ),
    (
        "huggingface_token_requests_header",
        "github-secret-scanning:Hugging Face User Access Token",
        'headers = {"Authorization": "Bearer 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"}',
    ),
    (
        "huggingface_org_api_token",
        "gitleaks:huggingface-organization-api-token",
        "HF_ORG_TOKEN=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",
    ),
    (
        "replicate_api_token_env",
        "github-secret-scanning:Replicate API Token",
        "REPLICATE_API_TOKEN=r8_bZkjObCHkYXQmPFbSc0mkIIsn3yvkfJSCi4AC",
    ),
    (
        "groq_api_key_python",
        "github-secret-scanning:Groq API Key",
        'client = Groq(api_key="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")',
    ),
    (
        "mistral_api_key_env",
        "mistral docs: API keys",
        "MISTRAL_API_KEY=tjqCDWuumYy64bl7lke6aMT9SyIEhWha",
    ),
    (
        "perplexity_api_key_bearer",
        "gitleaks:perplexity-api-key",
        'curl https://api.perplexity.ai/chat/completions -H "Authorization: Bearer '
        '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"',
    ),
    (
        "gemini_api_key_env",
        "gitleaks:gcp-api-key",
        "GEMINI_API_KEY=AIzap5jMn4eSzRI8JR-fXUEV08xI_WpXvWpgxpw",
    ),
    (
        "xai_api_key_env",
        "x.ai docs: API keys (xai- prefix)",
        "XAI_API_KEY=xai-qvihu1OH4W2LEgP8UUIkMYJP2VRbfapyHUqzBZdzBVx2byPbQhfBaumY8laTvzLizCd6hFxOYCjClgFi",
    ),
    (
        "openrouter_api_key_env",
        "openrouter docs: API keys (sk-or-v1-)",
        "OPENROUTER_API_KEY=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",
    ),
    (
        "langsmith_api_key_env",
        "langsmith docs: API keys (lsv2_pt_)",
        "LANGSMITH_API_KEY=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",
    ),
    (
        "pinecone_api_key_env",
        "pinecone docs: API keys (pcsk_)",
        "PINECONE_API_KEY=pcsk_GkveCa_qtHnPgc2UMW5tI6Gc1UtmT5hT7S9mR3fqCgbokOe7c6z3mfkQil34ESCBAQJEOc",
    ),
    (
        "deepseek_api_key_python",
        "deepseek docs: API keys (sk- + 32 hex)",
        'client = OpenAI(api_key="sk-55ff3ed75d35f99eba6bff3d47c9e84c", '
        'base_url="https://api.deepseek.com")',
    ),
    (
        "elevenlabs_api_key_header",
        "elevenlabs docs: xi-api-key",
        'curl -X POST https://api.elevenlabs.io/v1/text-to-speech/abc -H "xi-api-key: '
        'sk_ea8f3f6d9501246c489fb92ca05361dc0432b1c2aea9af73"',
    ),
    # --- payments --------------------------------------------------------------------------------
    (
        "stripe_live_secret_key_python",
        "gitleaks:stripe-access-token",
        'stripe.api_key = "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"',
    ),
    (
        "stripe_restricted_key_env",
        "detect-secrets:StripeDetector",
        "STRIPE_RESTRICTED_KEY=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",
    ),
    (
        "stripe_webhook_signing_secret",
        "github-secret-scanning:Stripe Webhook Signing Secret",
        "endpoint_secret = 'whsec_bRfFJ273wwaymN6NEBEKGRzomIQK46FH'",
    ),
    (
        "stripe_test_secret_key_curl_user",
        "stripe docs: curl -u sk_test_...: (key as user)",
        "curl https://api.stripe.com/v1/charges -u "
        "sk_test_51pyg49jYkTBxgdcdILRlx10DlE3Zqvqw3Yc063qveoswh9vHh5pBwvzoiQ9C2S9lxPvABNtaM5vAQEWlQ4CTnkgQVSEl8mkPQI: "
        "-d amount=2000 -d currency=usd",
    ),
    (
        "square_access_token_env",
        "gitleaks:square-access-token",
        "SQUARE_ACCESS_TOKEN=EAAAjXgOW08T_s6I4Dvx8FgXKfUoQHHfuICy8Z8Q0eapI-_onCDhM4x0Dy07Suqc",
    ),
    (
        "square_legacy_access_token",
        "github-secret-scanning:Square Access Token",
        "square.access_token: sq0atp-aYPWh15OEdR4fTg2wP4wDc",
    ),
    (
        "square_oauth_secret",
        "detect-secrets:SquareOAuthDetector",
        "SQUARE_OAUTH_SECRET=sq0csp-tGBY_HVUAGpN-a4zpg3MA0xMPasH8uidThAsRp0SbDF",
    ),
    (
        "braintree_paypal_access_token",
        "github-secret-scanning:PayPal Braintree Access Token",
        "BRAINTREE_ACCESS_TOKEN=access_token$production$lt9a25g9a6thk8pc$239abe37a5638ed41925877b946fbbf5",
    ),
    (
        "paypal_client_secret_env",
        "paypal developer docs: REST app secret",
        "PAYPAL_CLIENT_SECRET=EstMjKu142qDZOK0A5Yw0H22aXNnlltY17DN8BfXqCA2uGm5G2GxHiHRgCF90ya_s2ZQmaNSfb-f9TLR",
    ),
    (
        "shopify_admin_access_token_header",
        "gitleaks:shopify-access-token",
        "X-Shopify-Access-Token: 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",
    ),
    (
        "shopify_shared_secret_env",
        "gitleaks:shopify-shared-secret",
        "SHOPIFY_API_SECRET=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",
    ),
    (
        "shopify_custom_app_token",
        "gitleaks:shopify-custom-access-token",
        "shopify_token: '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'",
    ),
    (
        "plaid_production_access_token",
        "gitleaks:plaid-api-token",
        "PLAID_ACCESS_TOKEN=access-production-93d1e366-b140-4817-914a-3ea72ac7cffc",
    ),
    (
        "flutterwave_secret_key",
        "gitleaks:flutterwave-secret-key",
        "FLW_SECRET_KEY=FLWSECK_TEST-6h4dd8fhacf666af1h7h3c8581d11g8b-X",
    ),
    (
        "gocardless_live_token",
        "gitleaks:gocardless-api-token",
        "GOCARDLESS_ACCESS_TOKEN=live_GpQyCMyLvFsSMR8wdVlWxEmSSrua3E2UMZf_ZLga",
    ),
    # --- messaging -------------------------------------------------------------------------------
    (
        "slack_bot_token_env",
        "gitleaks:slack-bot-token",
        "SLACK_BOT_TOKEN=xoxb-22810599454-8627063209639-nWALogwZfP79K0BeLP4OXwNP",
    ),
    (
        "slack_bot_token_python",
        "detect-secrets:SlackDetector",
        'app = App(token="xoxb-241394332132-1770925824720-JAno37BP3kdBqKtz0kdSZ8MV", '
        'signing_secret=os.environ["SLACK_SIGNING_SECRET"])',
    ),
    (
        "slack_user_token_bearer",
        "gitleaks:slack-user-token",
        "curl -H 'Authorization: Bearer "
        "xoxp-96017799759-69890235310-8213294471219-9a0ff8476e8bb8fe985656edd116d263' "
        "https://slack.com/api/conversations.list",
    ),
    (
        "slack_app_level_token",
        "gitleaks:slack-app-token",
        "SLACK_APP_TOKEN=xapp-1-A01WB6QKERC-8002547300264-b7a51256b915c315dfb0eaa63bb26797e0c37e7324b66484ca58530f94df0e97",
    ),
    (
        "slack_incoming_webhook_curl",
        "gitleaks:slack-webhook-url",
        'curl -X POST -H "Content-type: application/json" --data \'{"text":"deploy done"}\' '
        "https://hooks.slack.com/services/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",
    ),
    (
        "discord_bot_token_env",
        "detect-secrets:DiscordBotTokenDetector",
        "DISCORD_TOKEN=MTQ0OTMzMzE2MzQ3NTkzNjgwOQ.H54wJz.pEI4xqIT_3ISoBT-n8iU1Aw2VHfxiSo_3HAws3",
    ),
    (
        "discord_bot_token_auth_header",
        "github-secret-scanning:Discord Bot Token",
        "requests.get(url, headers={'Authorization': 'Bot "
        "OTI1OTExOTc1MTYwNDMyMjA1.6uIT-W.GqBV5die9psWHLFXaLU6o5fORFz'})",
    ),
    (
        "discord_webhook_url",
        "github-secret-scanning:Discord Webhook",
        "POST https://discord.com/api/webhooks/1687553733591535486/Rc8FRXc_SQUCHwgy1Y1vGzOx8qHd2hQMIJpH-OETGGsVaimVx5nRose8kYFiEqyrxaev "
        "204",
    ),
    (
        "telegram_bot_token_in_api_url",
        "detect-secrets:TelegramBotTokenDetector",
        'requests.post("https://api.telegram.org/bot6299368233:AAi6oeAG-9mybK9B7OABfAGGGNrz-X1wfIc/sendMessage", '
        "json=payload)",
    ),
    (
        "telegram_bot_token_env",
        "gitleaks:telegram-bot-api-token",
        "TELEGRAM_BOT_TOKEN=287302641:AAAZOQqO8sxul7n6DcH9zPGl9dKVEiHep1d",
    ),
    (
        "twilio_api_key_sid_env",
        "detect-secrets:TwilioKeyDetector",
        "TWILIO_API_KEY=SK821cc188d7ef6d1fabeb237eeef15ede",
    ),
    (
        "twilio_account_sid_with_auth_token",
        "twilio docs: Account SID + Auth Token",
        'client = Client("AC18946c0099afcbee06565f28c79d38dc", '
        '"1a64e8da2cfce64daf70081bd70b23b4")',
    ),
    (
        "twilio_auth_token_env",
        "github-secret-scanning:Twilio",
        "TWILIO_AUTH_TOKEN=b8fca187a3595f25333e164fec8c314b",
    ),
    (
        "sendgrid_api_key_env",
        "detect-secrets:SendGridDetector",
        "SENDGRID_API_KEY=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",
    ),
    (
        "mailgun_private_key_curl_user",
        "gitleaks:curl-auth-user (mailgun key-...)",
        "curl -s --user 'api:key-107d31cce9be813f51e6e6a9081fad4b' "
        "https://api.mailgun.net/v3/mg.acme.io/messages",
    ),
    (
        "mailgun_webhook_signing_key",
        "gitleaks:mailgun-signing-key",
        "MAILGUN_WEBHOOK_SIGNING_KEY=ccbd458cb588f4fbebeef834ef890724-a2771d04-d0a10c2d",
    ),
    (
        "mailchimp_api_key_env",
        "detect-secrets:MailchimpDetector",
        "MAILCHIMP_API_KEY=314b969fbcfc79b460a8919ece8d4575-us12",
    ),
    (
        "postmark_server_token_header",
        "postmark docs: X-Postmark-Server-Token",
        'curl https://api.postmarkapp.com/email -H "X-Postmark-Server-Token: '
        'c93dfa5d-1dd3-4932-b853-1c7e2750a29b"',
    ),
    (
        "microsoft_teams_webhook",
        "gitleaks:microsoft-teams-webhook",
        "TEAMS_WEBHOOK=https://acme.webhook.office.com/webhookb2/44d9d17a-db99-4e8c-bb89-a97aca1adbee@f648a72f-30be-4e76-bfb5-a2620dcc41b2/IncomingWebhook/5f7a6ac9ab645b6fc6e6075522566373/289b82c3-4bf1-4e5f-aa2a-84ce57b271c2",
    ),
    (
        "brevo_sendinblue_api_key",
        "gitleaks:sendinblue-api-token",
        "api-key: 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",
    ),
    # --- monitoring ------------------------------------------------------------------------------
    (
        "datadog_api_key_docker_run",
        "datadog docs: DD_API_KEY",
        "docker run -d -e DD_API_KEY=bb805139a33032d2ba54080dceafa036 -e DD_SITE=datadoghq.eu "
        "gcr.io/datadoghq/agent:7",
    ),
    (
        "datadog_app_key_header",
        "datadog docs: DD-APPLICATION-KEY header",
        'curl https://api.datadoghq.com/api/v1/monitor -H "DD-API-KEY: ${DD_API_KEY}" -H '
        '"DD-APPLICATION-KEY: 8d21392546cb5485c8222b9bb20196cf794a78b9"',
    ),
    (
        "datadog_api_key_agent_yaml",
        "datadog docs: datadog.yaml api_key",
        "# /etc/datadog-agent/datadog.yaml\n"
        "api_key: 62de49322411d8d5ebaa5713832d3c0c\n"
        "site: datadoghq.com",
    ),
    (
        "newrelic_user_api_key",
        "gitleaks:new-relic-user-api-key",
        "NEW_RELIC_API_KEY=NRAK-P8UOW7G4ZOXVEPOSLEVO00CJHAQ",
    ),
    (
        "newrelic_insert_key",
        "gitleaks:new-relic-insert-key",
        "NEW_RELIC_INSERT_KEY=NRII-YTfcZxk0DYXkYHfY6Pq7-ZJH2qOSZ7be",
    ),
    (
        "newrelic_browser_key_snippet",
        "gitleaks:new-relic-browser-api-token",
        'NREUM.loader_config={accountID:"3301234",agentID:"601234",newrelic_licenseKey:"NRJS-e295d4b5a87c4aacc3c",applicationID:"601234"};',
    ),
    (
        "newrelic_license_key_env",
        "github-secret-scanning:New Relic License Key",
        "NEW_RELIC_LICENSE_KEY=a8f2187a48e978a1e1beb0d29956a4b6a8a7NRAL",
    ),
    (
        "sentry_dsn_with_key",
        "sentry docs: DSN",
        "SENTRY_DSN=https://99268fd9ab7620d705c9d7b3f2f211a9@o3758064.ingest.sentry.io/8290264674094372",
    ),
    (
        "sentry_org_auth_token",
        "gitleaks:sentry-org-token",
        "SENTRY_AUTH_TOKEN=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",
    ),
    (
        "sentry_user_auth_token_cli",
        "gitleaks:sentry-user-token",
        "sentry-cli --auth-token "
        "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 releases list",
    ),
    (
        "grafana_cloud_access_policy_token",
        "gitleaks:grafana-cloud-api-token",
        "GRAFANA_CLOUD_TOKEN=glc_eyJvIjoiMTgyMjQ4IiwibiI6InN0YWNrLTg4MTc1NC1obS13cml0ZS1jaSIsImsiOiJHQk9HUmtYZU9MSFFtd0RaOE04TnlseGUiLCJtIjp7InIiOiJwcm9kLXVzLWVhc3QtMCJ9fQ==",
    ),
    (
        "grafana_service_account_token",
        "gitleaks:grafana-service-account-token",
        "Authorization: Bearer glsa_88e1V3aftg0WrJ2j0wzjylOhc8rtH1pl_8e19a4e6",
    ),
    (
        "grafana_legacy_api_key",
        "gitleaks:grafana-api-key",
        "grafana_api_key: eyJrIjoiZjFCNTZtUmxqSmZpNGtSOXcxUnA4V3JXTUhZc1pQQmIiLCJuIjoiY2ktYW5ub3RhdGlvbnMiLCJpZCI6MX0=",
    ),
    (
        "pagerduty_rest_api_key",
        "pagerduty docs: REST API key",
        'curl -H "Authorization: Token token=7lU2eRQNskfIiKjo77qe" '
        "https://api.pagerduty.com/incidents",
    ),
    (
        "pagerduty_events_routing_key",
        "pagerduty docs: Events API v2 routing_key",
        '{"routing_key": "0ee8d75f07e4cf49fdaf39c5dca7f4e3", "event_action": "trigger", '
        '"payload": {"summary": "disk full"}}',
    ),
    (
        "honeycomb_api_key_header",
        "honeycomb docs: X-Honeycomb-Team",
        "curl https://api.honeycomb.io/1/auth -H 'X-Honeycomb-Team: SJFvNnieRjiLVL31OX9nWq'",
    ),
    (
        "honeycomb_ingest_key_env",
        "honeycomb docs: ingest keys (hcaik_)",
        "HONEYCOMB_API_KEY=hcaik_01yrnuq8o37avm2kfket0wd88zrznfgecsw4nkiqztmes1o77behmqcfrm",
    ),
    (
        "dynatrace_api_token_header",
        "gitleaks:dynatrace-api-token",
        "Authorization: Api-Token dt0c01.XC2N5TES8YU1SS6AJDKJ35MQ.7RKI6C6E3M2A084AJHF27970XBQC793I4GRPLZV3WVQMHSFH46XZJ1TR38SAXRFT",
    ),
    (
        "splunk_hec_token_header",
        "splunk docs: HTTP Event Collector token",
        'curl -k https://splunk.acme.io:8088/services/collector -H "Authorization: Splunk '
        '17981570-0065-4f26-b6cb-5af7beb5b5e2"',
    ),
    # --- infra -----------------------------------------------------------------------------------
    (
        "npm_token_npmrc",
        "detect-secrets:NpmDetector",
        "//registry.npmjs.org/:_authToken=npm_dqFLyjYEVvIxnnC0v8yhgjxNs6WZxYxsSu5f",
    ),
    (
        "pypi_token_twine_password",
        "detect-secrets:PypiTokenDetector",
        "twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcCJGU0MWYyMjBlLTk3OGYtNDEyMC04OTAwLTUxMjRkNWIzNjhjYgACKlsxLFsidXBsb2FkIl0seyJwcm9qZWN0IjoiYWNtZS1jbGllbnQifV0AAAYgRIVEJts6T6FmRe3PI4glVrz53YCy1aBLLOEM936-n4s "
        "dist/*",
    ),
    (
        "pypi_token_pypirc",
        "gitleaks:pypi-upload-token",
        "[pypi]\n"
        "  username = __token__\n"
        "  password = pypi-AgEIcHlwaS5vcmcCJDBjYmEzZjJhLWRlNzUtNDYxMC1iY2Q3LTcxOTFkZDNkYmRlYQACKlsxLFsidXNlciJdXQAABiCKA90RVy9qcyQbzqlrPu1gN4E5hvBwPRJV3d_A4B-Raw",
    ),
    (
        "dockerhub_pat_password_stdin",
        "github-secret-scanning:Docker Personal Access Token",
        "echo dckr_pat_Fq4yNFIK1X1C11XdPLGz-OCDhZg | docker login -u acmebot --password-stdin",
    ),
    (
        "vault_service_token_env",
        "gitleaks:vault-service-token",
        "VAULT_TOKEN=hvs.CAESIoeoFkAL2aouC1uCg2RLvkaF1CA-XfShnnSXHHARUvzaHmgvSGwhI9fx3FtaP4Vf7K4CajSbdbi2HB_UnOVoZT4",
    ),
    (
        "vault_batch_token_header",
        "gitleaks:vault-batch-token",
        "X-Vault-Token: hvb.AAAAAQ376Vmu_RFwmTJtqhNNloqRJtCRn-CEOgU7icSaGU4Ql525cJY_x10co3HHcbdKnO5DDMZL_by03u0V5oD5Hd6RY6dAABv-EPoj5vRD4fRvhDfsE3D1ofIqpX4HUscLl0_g3WjIY7GoEM",
    ),
    (
        "vault_legacy_token_login",
        "gitleaks:vault-service-token",
        "vault login s.ICXG8OX1Avb0fuvLnN0fWg46",
    ),
    (
        "terraform_cloud_token_credentials_block",
        "gitleaks:hashicorp-tf-api-token",
        'credentials "app.terraform.io" {\n'
        '  token = "kl2pYhUvJQprdJ.atlasv1.8jS3U94BT8Qzyq2LlYH4Hb4Qvlqw0oSilqEZOVGaaK9eeEa7SxliGYI47upJCN01gVd"\n'
        "}",
    ),
    (
        "heroku_api_key_uuid_env",
        "gitleaks:heroku-api-key",
        "HEROKU_API_KEY=de61257f-2e17-4d41-a49a-d4d68e534cff",
    ),
    (
        "heroku_api_key_v2_netrc",
        "gitleaks:heroku-api-key-v2",
        "machine api.heroku.com\n"
        "  login jane@acme.io\n"
        "  password HRKU-AAtH9vqigjLq7pR2pN5vuKsoRuGB4mttgULHA_7Te58CMy4tX7qGAkuJ6yvj",
    ),
    (
        "netlify_auth_token_env",
        "gitleaks:netlify-access-token",
        "NETLIFY_AUTH_TOKEN=nfp_gdQkzRgSe2W0MZkZzm1aDTpJZjRKQ1BBFqeq",
    ),
    (
        "vercel_token_cli_flag",
        "vercel docs: --token",
        "vercel deploy --prod --token TZ4IpNASLjGnrEGN3dWz3jbQ --yes",
    ),
    (
        "cloudflare_api_token_bearer",
        "gitleaks:curl-auth-header (cloudflare API token)",
        'curl https://api.cloudflare.com/client/v4/user/tokens/verify -H "Authorization: '
        'Bearer zGeSO1HNwOao---uMLrlooxXOzHz5XNfMOgmXh4W"',
    ),
    (
        "cloudflare_global_api_key",
        "gitleaks:cloudflare-global-api-key",
        "CLOUDFLARE_API_KEY=b205812f3a1b9276510574d412712695dc6de",
    ),
    (
        "cloudflare_origin_ca_key",
        "gitleaks:cloudflare-origin-ca-key",
        "CF_ORIGIN_CA_KEY=v1.0-20b6346ed33aae001b30c181-d678e01754df2d183d7ad9f27b7d8541c1d2d86a50d6b2cab4165b0b189bc3e08e76e237685ec6d2d523807dcad49815066cdd9ebda4a6165ed25f8972cffb93544b2d9b0bdb5efe25",
    ),
    (
        "fastly_api_token_purge",
        "gitleaks:fastly-api-token",
        'curl -X POST -H "Fastly-Key: YUjtxpjVbKgPyt53fXSyr-moJhNbYvZH" '
        "https://api.fastly.com/service/SU1Z0isxPaozGVKXdv0eY/purge_all",
    ),
    (
        "doppler_personal_token",
        "gitleaks:doppler-api-token",
        "DOPPLER_TOKEN=dp.pt.AKpNbrFJ5biYkffZ2wI9dxvCRvE7rI2hc9Pn1DtsdK9",
    ),
    (
        "doppler_service_token_cli",
        "github-secret-scanning:Doppler Service Token",
        "doppler run --token dp.st.prd.xuqMc1XCdyoE1I3WhK9Suw6TDqMfvpaVvE856MfC8R9 -- ./server",
    ),
    (
        "pulumi_access_token",
        "gitleaks:pulumi-api-token",
        "PULUMI_ACCESS_TOKEN=pul-3543dac0b4125bd284142deae2556775c7d6b98b",
    ),
    (
        "linear_api_key_header",
        "gitleaks:linear-api-key",
        'curl https://api.linear.app/graphql -H "Authorization: '
        'lin_api_EXDPmLuZ1OY9cLXWpCbiqYzBWO5agtPMWjyuGbwR" -d \'{"query":"{ viewer { id } }"}\'',
    ),
    (
        "notion_integration_secret_legacy",
        "github-secret-scanning:Notion Integration Token",
        "NOTION_TOKEN=secret_Yvk0QqxvEWQlToPl3bZ8jG6gyJIqkenuDSJzFuQrO86",
    ),
    (
        "notion_integration_token_ntn",
        "gitleaks:notion-api-token",
        'notion = Client(auth="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")',
    ),
    (
        "airtable_personal_access_token",
        "gitleaks:airtable-personnal-access-token",
        "AIRTABLE_API_KEY=patIF8zP2z5bpMUQP.ba38b362037f8150b0c0722b5dcffde90901f3ee779b63360a04530998bf5983",
    ),
    (
        "okta_api_token_ssws",
        "okta docs: SSWS API token (00 + 40)",
        'curl -H "Authorization: SSWS 00Bnr2pyOpYjwB1GnkG_6gjEGsmWj80W-CFXEmhAVa" '
        '"https://acme.okta.com/api/v1/users?limit=25"',
    ),
    (
        "auth0_client_secret_env",
        "auth0 docs: client secret",
        "AUTH0_CLIENT_SECRET=QnwDDIf09I3KDKOhCiEtKQ6zwIi2F4gHHy_5mS7NUHI1LWrSQb8uMDtSOJeRBHxi",
    ),
    (
        "artifactory_api_key_header",
        "detect-secrets:ArtifactoryDetector",
        'curl -H "X-JFrog-Art-Api: '
        'AKCpDnFIcNSEwZFBmcWOFCnMDPw7fAs9YEL9u8xl1PK5wfDnPVsvnMeSoxm52AcLyIfo3a8iC" '
        "https://acme.jfrog.io/artifactory/api/repositories",
    ),
    (
        "sonarqube_token_scanner_flag",
        "gitleaks:sonar-api-token",
        "sonar-scanner -Dsonar.projectKey=api "
        "-Dsonar.token=squ_a6529c94756a4dc970537f746ea144c88e18e624",
    ),
    (
        "snyk_token_env",
        "gitleaks:snyk-api-token",
        "SNYK_TOKEN=220508ab-8455-4689-a3b8-01de54894898",
    ),
    (
        "circleci_personal_token_header",
        "github-secret-scanning:CircleCI Personal Access Token",
        "curl -H 'Circle-Token: "
        "CCIPAT_45iDBOHYxc5DeJ6H6iYBrR_7fa4dd6aa3f76fa6e31cf72b979d47ed580e712e' "
        "https://circleci.com/api/v2/me",
    ),
    (
        "buildkite_api_token",
        "github-secret-scanning:Buildkite",
        "BUILDKITE_API_TOKEN=bkua_464d114bcbd2c1aac963c88077dd669c16388bf9",
    ),
    (
        "postman_api_key_header",
        "gitleaks:postman-api-token",
        "X-API-Key: PMAK-0e0cae7a2834c79511b3ae8c-1164ee0cf0d29fd2dae4b0a3fa03ffd796",
    ),
    (
        "supabase_access_token",
        "github-secret-scanning:Supabase",
        "SUPABASE_ACCESS_TOKEN=sbp_a17d6950a555f3aa0c6742988886c37d8ba53e67",
    ),
    (
        "databricks_token_env",
        "gitleaks:databricks-api-token",
        "DATABRICKS_TOKEN=dapi9ba3ae07263a8868626645f1b3f426b2",
    ),
    (
        "flyio_access_token",
        "gitleaks:flyio-access-token",
        "FLY_API_TOKEN=fo1_G4eqKa_PlNibUUiRjHKrMfAmfrwCbAopERf5B84U2GG",
    ),
    (
        "age_secret_key_file",
        "gitleaks:age-secret-key",
        "# created: 2024-05-17T10:12:44Z\n"
        "# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n"
        "AGE-SECRET-KEY-1AA4F5HPUQR0YZKDWUW8K0JXHUFGSSLA7NDDSF3E9YPHXZ3NTM2UG4YMMQP",
    ),
    (
        "onepassword_service_account_token",
        "gitleaks:1password-service-account-token",
        "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoiYWNtZS4xcGFzc3dvcmQuY29tIiwidXNlckF1dGgiOnsibWV0aG9kIjoiU1JQZy00MDk2IiwiYWxnIjoiUEJFUzJnLUhTMjU2IiwiaXRlcmF0aW9ucyI6NjUwMDAwLCJzYWx0IjoiN0Z6S29XdWRucGRWV3JkV1dxUE5ibyJ9LCJlbWFpbCI6InpvOXJjOHhneGV0ZDhoZ3VzYzExM3A0eXd0QDFwYXNzd29yZHNlcnZpY2VhY2NvdW50cy5jb20iLCJzcnBYIjoiZDVlNDY4ZmUwZGU1N2I2Zjg5ZWI0Y2IwOGFhNTQxYjJmMDNlMjdiZjZiZDczMGM4NzNmOTQ1NTVmYTA5ZmFkNiIsIm11ayI6eyJhbGciOiJBMjU2R0NNIiwiZXh0Ijp0cnVlLCJrIjoienhPWGt4NUM1THV1WXlzUXJsalRaNzZBc2E2N1RHVFVuNGRsSG9HQnBJVSIsImt0eSI6Im9jdCIsImtpZCI6Im1wIn0sInNlY3JldEtleSI6IkEzLTVFSUtSVi1RNThVRE45UjgxQi1SQ1pVSS0zVjE2Vi05Q1NNTiJ9",
    ),
    (
        "rubygems_api_key_env",
        "gitleaks:rubygems-api-token",
        "GEM_HOST_API_KEY=rubygems_5fb3d51aceca202d7e0a2f1c9e5dd1043d4b35840e70741f",
    ),
    (
        "nuget_config_cleartext_password",
        "gitleaks:nuget-config-password",
        '      <add key="ClearTextPassword" value="yZx8rZt*0s04UW4U8aK6" />',
    ),
    (
        "kubernetes_secret_yaml_data",
        "gitleaks:kubernetes-secret-yaml",
        "apiVersion: v1\n"
        "kind: Secret\n"
        "metadata:\n"
        "  name: db\n"
        "type: Opaque\n"
        "data:\n"
        "  password: bjh1bmNBSFIwbkN2cDdqMS01",
    ),
    (
        "openshift_user_token_oc_login",
        "gitleaks:openshift-user-token",
        "oc login --token=sha256~SBHTlrvPulb9tlAE4aBcC9K7VwHxoRq0zM_1KCSFYNf "
        "--server=https://api.acme.openshiftapps.com:6443",
    ),
    (
        "launchdarkly_sdk_key",
        "github-secret-scanning:LaunchDarkly",
        "LAUNCHDARKLY_SDK_KEY=sdk-7c61b4b0-834e-4fed-98eb-80414f68034d",
    ),
    (
        "mapbox_secret_token",
        "github-secret-scanning:Mapbox Secret Access Token",
        "MAPBOX_DOWNLOADS_TOKEN=sk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6ImNsNDNmbGlmbnJzaGN4bG01Y2Exajd5ZzUifQ.hjcFuW5Cioa_o162wzGDCo",
    ),
    (
        "algolia_admin_api_key",
        "gitleaks:algolia-api-key",
        "ALGOLIA_ADMIN_API_KEY=9963091c1fefaeb6118542316d8907a4",
    ),
    (
        "hubspot_private_app_token",
        "hubspot docs: private app access token",
        "HUBSPOT_ACCESS_TOKEN=pat-na1-fdd06426-3a42-43f2-be14-69d0e2bdd5f3",
    ),
    (
        "twitter_bearer_token",
        "gitleaks:twitter-bearer-token",
        "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAAAW3OPlUzPEIPvBejtHoUNv8uUpIDra92eCGbKAdZbzRVvfNinxbjusfmxsj6Z%3DMupZ9ASKAOnivaxpz68XgGG4OVyo4a",
    ),
    (
        "facebook_page_access_token",
        "gitleaks:facebook-page-access-token",
        "FB_PAGE_ACCESS_TOKEN=EAAMiRPTpI3yBcdxihFwZYvAjLqYl6TgVWIRTbpOwfF6MopkSz9SfV6F7VrpvTxfIJw6iB8HU8cTAA9Andu2MFENaRWmZHAvolJlYCWCSNE5tscmxmrE9r8B1edkpKAlsJtB5J8e2r9qkSWf3LAizJeNhtVbnMcqpSC7T36ZD9DEsn9aMK4XbQk8",
    ),
    (
        "dropbox_short_lived_token",
        "gitleaks:dropbox-short-lived-api-token",
        "dropbox_token: sl.nhpUniDPoFbzc_WDZNF7FFdd09zR57d6SJ5PIhn_vD2xOY7CjbQSMIHO9Lx5F4owCUbZYUrWDuKm5aglmJ_Oq2YbFQajJFFGZVB4TEdQXgW_qxvTMvEpxMrI0Vw8R_Moj-s3oBG",
    ),
    # --- databases -------------------------------------------------------------------------------
    (
        "postgres_url_env",
        "libpq docs: connection URI",
        "DATABASE_URL=postgres://app_user:K9CUBazIwzUj-TbR@db.internal.acme.io:5432/orders",
    ),
    (
        "postgresql_url_in_psycopg_error",
        "libpq docs: connection URI",
        "psycopg.OperationalError: connection failed "
        '(dsn="postgresql://report:zpQwp9BrAX5A_A@10.0.3.17:5432/analytics?sslmode=require")',
    ),
    (
        "sqlalchemy_url_in_traceback",
        "sqlalchemy docs: database URLs",
        '  File "/srv/app/db.py", line 12, in <module>\n'
        '    engine = create_engine("postgresql+psycopg2://svc_api:pLOVTImRSEv~EE2b2Czd@pg-primary:5432/api")',
    ),
    (
        "postgres_url_percent_encoded_password",
        "libpq docs: percent-encoded URI",
        "DATABASE_URL=postgresql://etl:Wdfk0%40C63c%3AXPj4eS%21@warehouse.acme.io:5432/dw",
    ),
    (
        "mysql_url",
        "mysql docs: connection URI",
        "mysql://root:ex8px.NNkMg8@127.0.0.1:3306/shop?charset=utf8mb4",
    ),
    (
        "mongodb_srv_url",
        "github-secret-scanning:MongoDB / mongodb docs",
        "MONGO_URI=mongodb+srv://admin:V7CCrdqtNod~0UfR@cluster0.x7k2p.mongodb.net/prod?retryWrites=true&w=majority",
    ),
    (
        "redis_url_password_only",
        "redis docs: redis:// URI",
        "redis.exceptions.AuthenticationError: invalid password "
        "(REDIS_URL=redis://:TXJr.9kBL1W2Vqt21plabbqs@cache.internal:6379/0)",
    ),
    (
        "rediss_url_default_user",
        "redis docs: rediss:// URI",
        "UPSTASH_REDIS_URL=rediss://default:cNsh1ZCn8ZedO0dIfPJgV458f4NqoXPY@usw1-liked-fox-31337.upstash.io:6379",
    ),
    (
        "amqp_broker_url",
        "rabbitmq docs: AMQP URI",
        "CELERY_BROKER_URL=amqp://celery:q8~WgsdtiNXNtt5B@rabbitmq:5672/prod",
    ),
    (
        "jdbc_sqlserver_password",
        "microsoft jdbc docs: connection string",
        "jdbc:sqlserver://sql01.acme.local:1433;databaseName=erp;user=sa;password=AF5mbNlJuv~RyD;encrypt=true",
    ),
    (
        "adonet_connection_string_password",
        "microsoft docs: SqlClient connection string",
        '"DefaultConnection": "Server=tcp:acme.database.windows.net,1433;Initial '
        'Catalog=crm;User ID=crmadmin;Password=DadbwHxkXIu0P6^H;Encrypt=True;"',
    ),
    (
        "odbc_pwd_attribute",
        "odbc docs: PWD= attribute",
        "DRIVER={ODBC Driver 18 for SQL "
        "Server};SERVER=sql02;DATABASE=hr;UID=hr_ro;PWD=RcEYwatqDY_F6V;",
    ),
    (
        "planetscale_password_in_url",
        "planetscale docs: pscale_pw_ password in URL",
        "DATABASE_URL=mysql://8k2x9v:pscale_pw_2-tTdNVlOuBWCF8pDkl76OjRC6lRinFTj3dPBPK5qn0@aws.connect.psdb.cloud/app?sslaccept=strict",
    ),
    (
        "clickhouse_url_password",
        "clickhouse docs: connection URL",
        "clickhouse://default:8XKmIseXH~SwICUjgH@ch.acme.io:9440/default?secure=true",
    ),
    (
        "elasticsearch_basic_auth_url",
        "elastic docs: basic auth in URL",
        "curl https://elastic:8w50LJvJDyJ0tMnSoYyL@es.acme.io:9200/_cluster/health",
    ),
    (
        "spring_datasource_password",
        "spring boot docs: application.properties",
        "spring.datasource.password=2L7ydyVoUPi_X9d",
    ),
    # --- jwt -------------------------------------------------------------------------------------
    (
        "jwt_bearer_curl",
        "gitleaks:jwt",
        'curl -s https://api.acme.io/v2/orders -H "Authorization: Bearer '
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzg4NDIiLCJyb2xlIjoiYWRtaW4iLCJpYXQiOjE3MTU5NTAwMDAsImV4cCI6MTcxNTk1MzYwMH0.SwsuJMgWcfXbOFAcXxlvaJCLW3KhL5abXKFWgYRR0z_"',
    ),
    (
        "jwt_access_token_cookie",
        "detect-secrets:JwtTokenDetector",
        "Cookie: theme=dark; access_token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsInNpZCI6IjNhNDllYTQ1MzViYTk5MTYiLCJpYXQiOjE3MTU5NTAxMDB9.S8BqkEEtOJlQef19RBmN2SlehjFb4ZN-8r68S7f6yZC; "
        "_ga=GA1.2.1234",
    ),
    (
        "jwt_id_token_rs256_json",
        "gitleaks:jwt",
        '{"token_type": "Bearer", "id_token": "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjRmZWQzMmY5YTFhNzczNzRjZTM4MTU4NjE4OTFlYzQxYzI3MmJmOGIifQ.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmFjbWUuaW8iLCJhdWQiOiJ3ZWIiLCJzdWIiOiJhdXRoMHw2NjQxZiIsImVtYWlsIjoiamFuZUBhY21lLmlvIiwiaWF0IjoxNzE1OTUwMDAwLCJleHAiOjE3MTU5NTM2MDB9.tVvEOvnj7pnDljslksxP4Qw_EmiVTizM3IHCFlo1K1P1-zcatbMjSYsNdhIdz0iPagDj4rXLMCpNpGsuamDF4s_cprmwNAGXwp5_FRZf9IslRXgX2Gf4dKL8XkqnjxnGVCy5PVqwMe9F_tDL8MGJsyvYmOIZ4fGVK2dJao57gPuUMEdUkJS_ypNWMxhpnBufQJxXc26fPFUEKO_hcKKf8qtWCPVlB0oGtJgTyNiPCT5BMIksWo5F1MkrILJ8pBAI92uInOssQYnJ8DpG5Bc9A8MrOf3wGEZ7Y4A1wuraw-OZhKgxiFeAaFB6XTMiLO9JLKGZg32I90oWfPl12XRPqR", '
        '"expires_in": 3599}',
    ),
    (
        "supabase_service_role_key_env",
        "supabase docs: service_role key (JWT)",
        "SUPABASE_SERVICE_ROLE_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6Imp6c3R1YWxieHBnY3FyeHFuenprIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoyMDE1NTc2MDAwfQ.MbBBO3n8__ej42SeOcJDDBcjt8EXeLkBhns77kwbNxd",
    ),
    (
        "jwt_websocket_query_param",
        "RFC 7519 JWT in a query string",
        "WebSocket connection to 'wss://rt.acme.io/socket?token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjk5MSwiY2giOiJvcmRlcnMiLCJleHAiOjE3MTU5NTM2MDB9.kRB9tR72hqj2qlIQEYv1LotHdoFvhqRXZqZ0-G3j_mz&vsn=2.0.0' "
        "failed",
    ),
    (
        "kubernetes_service_account_token_file",
        "kubernetes docs: projected SA token (JWT)",
        "$ cat /var/run/secrets/kubernetes.io/serviceaccount/token\n"
        "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InpzTXd6bjRKUGt3Vjc1NWQwV0p1RlRwZEFiSnRWZnZnZmNXaFBGQWxiaTYifQ.eyJhdWQiOlsiaHR0cHM6Ly9rdWJlcm5ldGVzLmRlZmF1bHQuc3ZjIl0sImV4cCI6MTc0NzQ4NjAwMCwiaWF0IjoxNzE1OTUwMDAwLCJpc3MiOiJodHRwczovL2t1YmVybmV0ZXMuZGVmYXVsdC5zdmMiLCJrdWJlcm5ldGVzLmlvIjp7Im5hbWVzcGFjZSI6ImNpIiwic2VydmljZWFjY291bnQiOnsibmFtZSI6InJ1bm5lciJ9fSwic3ViIjoic3lzdGVtOnNlcnZpY2VhY2NvdW50OmNpOnJ1bm5lciJ9.ZRCF39zNNaEHZnCAMCHwJO0yEtduXp_11CPmaAzQ7zw94XkTd_gx85_3h27n1ad4f0YY5NUi9iDGaLRPpFGEvRG65zppaqXq7uQigwJDFHrBhIUYPC5D4gGM99s9e5SqFp_vxs5fvEKrk1bB_t9xjPCAGAW4LX3CgBJg2SfQFr_h9upqwp-9JveSMxLQgIWFI366AAJxUcEKPsDoBqtv4QXMRKuPjfsgC4YxlIPwkZizXbW38OKGOJjzWyhtWbcQKD53iybq-G6QlWMCzXcpRsRMNLzMh6IyqbC5TTgLsk1rlqH1CZ5YFH5jIXEXmIZXzLp9fCwaBj598xipuQIvID",
    ),
    (
        "jwt_in_python_repr_dict",
        "gitleaks:jwt",
        "DEBUG auth.client: token response {'access_token': "
        "'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzdmMtYmlsbGluZyIsInNjb3BlIjoib3JkZXJzOndyaXRlIiwiZXhwIjoxNzE1OTUwMzAwfQ.7uzMUCyObk5xTeJ2BymVTqliCyM78gzZHK0dc8k1XJp', "
        "'expires_in': 300}",
    ),
    # --- pem -------------------------------------------------------------------------------------
    (
        "pem_rsa_private_key_block",
        "gitleaks:private-key / detect-secrets:PrivateKeyDetector",
        "Loaded deploy key from $DEPLOY_KEY:\n"
        "-----BEGIN RSA PRIVATE KEY-----\n"
        "MIIEpAIBAAKCAQEA+GEMdaA0YjzcSDRT+JmU3ji3M8lS0FBqE9vxExhPiRonYoYb\n"
        "GA9cDCa1LvhqbxUZ9CHwPvNZ4rnBIlBQXl0S1jivu6CsYGKmILvfLOTD3wfO0tod\n"
        "ZdR/yQG81YKlTMP1O+j6bTN3nMnizcgFscBc22J9jQBEjX7OmmFIILtC3BLbPvnr\n"
        "cyp/EE2lE/puG0Qfp6ahK9pxxtWPXWiLMLOTRq2J6jIpDGMLWLNBCalov38oKTTN\n"
        "I9l19BXxRLMAkK1No3emiX3zwzslMXujnFsDjxVfjkBrdZxvdkKoCGd7NzshsR/s\n"
        "uGGU2I5K2cB4awVmSQtLcpQbVP06Yc6mpjSkRQIDAQABAoIBAE6QfbpUpPfREMVX\n"
        "ky69XaWvZqN/atD8RjVVK/JewSKXUMpQ9Lr+T+P1D1DBAqI8DIei4gYRyEo6DR2u\n"
        "jsIydgw1HMkzqfaS3AirmHn3KfHSakxT29IdF0uY+jkg8ryY2M319uQ7B2BQl17C\n"
        "g1WGEfAlOVQwVhYV/DSVbgUV0kk3ENGkVJVsZKSeNjm7/EOuEa3WV4r+e4vwZzeF\n"
        "UuQHhVfaufznUyto5P4FExsORl+R8XgL6Rdw+b0PvfcAAb6HlSw1BHNo3cMMDyHs\n"
        "NDTBWXosqp6mDkeX9kS7Se21q9ZVQvzKRhYI/CaXlk9fXpSoYSoDd261BlusF8hc\n"
        "ClqjBmoCgYEAwL5AYFJcpZfLayTYBCKe8gVqhpHev1lpp0Z3JtBMja3V6fzbfHwv\n"
        "+GhfsVMEjelSOhWGWta6l//cS9kCtiXYSlVtT0lwhEfBxwTHLrkmB70qQnKK1Zll\n"
        "1TCjVkPe1WRaMnO8VfXXGCT6Rtoej/Ov0OOV8a0Zq1njHWjuDwnzIgECgYEAP9kx\n"
        "BudUx99daAqEUil/vE83viqAQEiicZn7jwlCe9xC8vVH0joXS/EPgNXndS/z8uhn\n"
        "K9IWP9jzBRUJryZlWsaBKGQ314hnJG+Oc9+FpYWlpzlFjk/Y/7VkPUZ3G9Jtz2fk\n"
        "zf0KsMjgf08kjzyKh3NpexTqe+wDR2DH7YMiJBgCgYBvDOif+Pl3RkQzZ1GvbIeG\n"
        "qf+r5pajLi+1bpaeGssIjjku8i2rG8KYxMcEgwrJl2+Lm7nHy6X08YZ4xP2PncDS\n"
        "YGdIgpGvGw47t2Kroty+KZpiqH4N8J5LOcIIrqX69rmP+YDSA/nNVNfaqdMcoLI3\n"
        "gp9NgZVzhv+bHGT3p8LX6AKBgDsCUuhyV3GS5awD9C6x9oAShdG/KPQDDOJ3kzmk\n"
        "dmPUFZBIMM1awiVnJfF+StuTQffodSc9lykM+RoX26QPXkwsRKynzHqLyb3TIqUr\n"
        "lxAyN2J5yLYLawBavrEEmiKqcddIJIYKz5P2kNtIChWstCjuu6DhXbll7hiz21Oe\n"
        "NNuiAoGAEBz1wo2hKAMrDShH3SeAo76FU/Ij9FsamuOUmE7C87sQ+sCLx5cbBij3\n"
        "R8W6SY59CeysloLyxs0VBP/n2lxysykV00Zc3q0fb39nJ3xX322gm3R700KDW9Q9\n"
        "6ptx0xq8Dq/Nzt0wiEpAWREhZSirEYkPQspfRB1vzMLyh+ySSec=\n"
        "-----END RSA PRIVATE KEY-----",
    ),
    (
        "pem_ec_private_key_block",
        "gitleaks:private-key",
        "-----BEGIN EC PRIVATE KEY-----\n"
        "MHcCAQEEIOMqvHJ1MScKp/BLUSZ+CcTcS0hEz9b5NqMSgn1o6fZIoAoGCCqGSM49\n"
        "AwEHoUQDQgAEcitNiG3KsURtIu3zEs5h7a+A/VdQj/HbpniWJ+SQSAJwe9EM7KPJ\n"
        "/36FG5I1uyJuVpV5ZE0jcepDyGVMjdGSzw==\n"
        "-----END EC PRIVATE KEY-----",
    ),
    (
        "pem_openssh_private_key_block",
        "gitleaks:private-key",
        "$ cat ~/.ssh/id_ed25519\n"
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
        "QyNTUxOQAAACDZ+JRPt87IePNFroQhfu/ay0AjQoJ9AO9b4Mlm6ra6TAAAAJjJCO5kyQju\n"
        "ZAAAAAtzc2gtZWQyNTUxOQAAACDZ+JRPt87IePNFroQhfu/ay0AjQoJ9AO9b4Mlm6ra6TA\n"
        "AAAECeCdxRYctnkLg1NLGyBJr06KmBFYr3g8HqnCsAJp+T3dn4lE+3zsh480WuhCF+79rL\n"
        "QCNCgn0A71vgyWbqtrpMAAAAE2RlcGxveUBjaS1ydW5uZXItMDcBAg==\n"
        "-----END OPENSSH PRIVATE KEY-----",
    ),
    (
        "pem_pgp_private_key_block",
        "gitleaks:private-key",
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n"
        "\n"
        "lQOYBGZBpo0BCADpX/pdByopxEljkQ+wgYXKdP/S5wu69VfsYjsaxbzrGi7fVHUo\n"
        "Pk06THVJXK6FeHlCvqcZqXOPHwnOcd1TUZ0QMpPb8xN6/Fl2FcQR+vOcV/GdRTu7\n"
        "zwaCuDCEieOVTL4EGAL3ldWjqgPmGuxRYh58c6QkFYi2C9BvQtAR9ALQKX4hG+fk\n"
        "R4h2W3cMrvZJuzMItC01d9jQme0/Ikgfpsl9rwogYxWmxVYCZDdRDqGPNkR7D8XW\n"
        "+T3Zbf1M/qg5LkjJ4f3oRb6BtWUuLbExESQjN741EtM/vhfzIBEZpVDZyr6IE1DX\n"
        "wQjJddDH+nAr+sG/+F5ASYhRTZ6ybnjcrZpZ54hAynPBdIzUO6GUvLDJottgh3RG\n"
        "v0iSBCtlYz9us+Z3nfZkkJJU2UzI0Fyz6IskxU/8WNKxUYADfmprU2Zrhxg7p6kO\n"
        "4wbVPh94Jp/3UxMq+Bqa6/CFINY2QouVkOG+N5bkDE7ZOoS/1DNR+WVHptysIWXX\n"
        "6XRBXbuzrClhxS0ZqJm2cYsApTQlfsoEb8hH\n"
        "=TtTb\n"
        "-----END PGP PRIVATE KEY BLOCK-----",
    ),
    (
        "pem_pkcs8_private_key_block",
        "gitleaks:private-key",
        "ssl_certificate_key contents:\n"
        "-----BEGIN PRIVATE KEY-----\n"
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDB+2KObSWv1IH5\n"
        "+C+BDDDP45vlP1GdNFEw35B/2qxnsm9sVIGsZTgR1jwH85B5Fzh7VzmAroculvt2\n"
        "E4lZECCIbp0ac//UuEvNR/VK4AgEV5tbAufY8ht21ixOb4W1vC0+m1vTHDS/bqBw\n"
        "4/lInm+nwuKLXMXMStN6K6Yk7wKysujSkhiovVLZ8wvs/eCydb/LvMYJY7oAnKQM\n"
        "NSKtew28b3X5vXHci59WMv0FBHgbZutOvlkt5GNKZuhaPMC7ITeDyNgY1UVZGeVB\n"
        "+ho1aHbB8otbg3lnlEZb3uM7Mje3fyJ9IIZ7ZesVUF19gbFrHZeCPDIatci/MNtc\n"
        "ffeIVPfUAgMBAAECggEAVf52XMN9my2NpinUmtGxs6jkIH3++AfDfwFud6dbfH1f\n"
        "NW2Y96W9xZDaPyGMYIy8r2Hv9iX+mZndSuF4eEFDUftJ0nB/MkoP1FB0oTtMEnR7\n"
        "jddf255+5o8BQist+fcizTSCm1tgsZIZy+g2X3g2VeORcB+mdejoHGx7cgBDvAFM\n"
        "eJrSnDdgt2wahtp2LYebHg4LyM55wElRNRGC3JVWYJHrToJ44emgFwC7oc+uNCby\n"
        "XfAvfsrHSO/4aNOn6P1SC5j1XXw0u2186XYguvhAHFjGNyECCUxZS5iyUSMCdj1P\n"
        "LqPPlTcDpVrnsEeFh295+GOnCRU9L+f3kuiOkv3vZYifbITL7gYO8HS894VoZp4D\n"
        "-----END PRIVATE KEY-----",
    ),
    (
        "pem_encrypted_private_key_block",
        "gitleaks:private-key",
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
        "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQIYrONRDGp48sCAggA\n"
        "MBSKyeuOw4LgXmI2E8CVmDR39kjLQMik2QzCCJ3kblANjjqqNz3bWemrqo02wVcx\n"
        "R9H1RvhQ0BCEYSww8ol4bop3JIqzyeZ1aJC7rJ68BHf0mqvRfDr08AP6683epjcA\n"
        "kCB9Mj9qVWwJDNoAdJpy4bGLaJwmcBas+5ls+SKK+ScgLj8O1PLWD5qDQbYNju6v\n"
        "3pXXdRQrgDC+AFXgLo6fN8dU54ICJlSeYj/iWLQnG+gnj1Eb46ei1LhcmCW5rtLM\n"
        "rLWjZAnfVCFJYM2S9WRm5VPWPxVYyt+g6ylFtIu6XWKFVkYrZp+z7O1NA87g8aGZ\n"
        "I7GOVuaMlGYglW7slOxfDbqJTkLb+1QXT1o8nNks07YPah+yqkm4OFaMaxPSmrEW\n"
        "onPVvj5SROjncrSxSl/6W8ucfGPBMTzWd2k6VJp5xtiK29r0rBhe+B5ovSI7M3X5\n"
        "2b2rExfDxbWaBrcz/vnneSKqJBfCLRWp9hTgjrQLLUctbrvvTIRJJZLkAE0K0DYI\n"
        "CE2zVIHNXPZK2S1RsQwB4qZT2/T7iwfV8LoeP5F7zqfOUR4qptQ=\n"
        "-----END ENCRYPTED PRIVATE KEY-----",
    ),
    (
        "pem_rsa_lines_as_json_list_items",
        "gitleaks:private-key (split into JSON array)",
        '{"key_lines": ["-----BEGIN RSA PRIVATE KEY-----", '
        '"MIIEpAIBAAKCAQEA3h0P8P9S8Z1b4K+DsfHA2Tbz5BId8tP5zd45ZL6MJ4GVveSO", '
        '"Djhtj/7qS33nQIOdWLILArIfntcS3Ef0i7g5btebWYBUyL3Si+9RVPmu0ATFHT1f", '
        '"sulNqOlg+uvWYnAfnWcRb6257pD2X3LyY2xCk49Pxe054CmxHkD+mPVcA2vmbBS8", '
        '"uiXvgwqZuwKRxwt9VD6wLRTiYVphinwISVJV9Sv4M+wEL9Np3z5Dn0mmz04SDVUI", '
        '"St/1EwtmQT6lSPSX3oEqPiDXHr/q90PQGtliUitC91q8Lh56CTV690GcvG/EuYXN", '
        '"NYMaW41ONQIhjKT5v2FYiWgT4808gX1OhFBu5wIDAQABAoIBACa6FyaED5DVSh1Q", "-----END RSA '
        'PRIVATE KEY-----"]}',
    ),
    (
        "pem_rsa_literal_backslash_n_env",
        "gitleaks:private-key (literal \\n escapes)",
        'JWT_PRIVATE_KEY="-----BEGIN RSA PRIVATE '
        "KEY-----\\nMIIEpAIBAAKCAQEA7NvrgwrCMCR3FTOTbdlOtSRpD+957c2vEX/m+EKG/C6jDAn6\\n7+5CB670QkofbpaeJxNQgMib91LKCMZkZh5IzQs+I4STFwjpxWJTphaKc6Sxw//w\\ndUf0jd31OEo/ygiJwnV3Uj3+2SwNQz5tSj/0i8+zEAF6CryGee2xPbBWE6DpvRN0\\nAIF2ey4uIyTAS+VcejymxnEUUUiSgNxX3tK5JYYIsVccQG5KmXVS0M/xoInUDx7z\\n2P8lFWCQWWBU6St/1/djiBtVWnYtKLasH+Z3W0NhLmfxXfNEXnOza56jrHOFMtoW\\nYCujqKbVEUv5Z9eN685G5ERHOQvANDLRGj2+TwIDAQABAoIBAKLEniBJVj6+xBBi\\n-----END "
        'RSA PRIVATE KEY-----"',
    ),
    (
        "pem_ec_key_in_yaml_block_scalar",
        "gitleaks:private-key (YAML literal block)",
        "stringData:\n"
        "  tls.key: |\n"
        "    -----BEGIN EC PRIVATE KEY-----\n"
        "    MHcCAQEEIMuQmLP9gd/YjyshSTPgZQd2PsauHC1UdPgmwfWwdiXRoAoGCCqGSM49\n"
        "    AwEHoUQDQgAEJUieGTkd5OeoC6hVZM7IZ5vpBLU+Jj0cB2JeTV3I4JwLAOa2NeCs\n"
        "    RIbsGGHgzvJ497fpXmxqeL3a4zTWocR2qg==\n"
        "    -----END EC PRIVATE KEY-----",
    ),
    # --- ssh -------------------------------------------------------------------------------------
    (
        "sshpass_password_flag",
        "sshpass(1): -p password",
        "sshpass -p 'A5.3RqN27Z19sM' ssh -o StrictHostKeyChecking=no deploy@10.0.4.12 "
        "'systemctl restart api'",
    ),
    (
        "paramiko_connect_password",
        "paramiko docs: SSHClient.connect(password=)",
        "client.connect('bastion.acme.io', username='ops', password='kLUPUqyWm4.U28m1', "
        "timeout=10)",
    ),
    (
        "ansible_ssh_pass_inventory",
        "ansible docs: ansible_ssh_pass",
        "web01 ansible_host=10.0.2.11 ansible_user=admin ansible_ssh_pass=N3GsU9JC_h0dj",
    ),
    (
        "plink_pw_flag",
        "putty docs: plink -pw",
        'plink -ssh admin@192.168.1.20 -pw 1LU5E~EP7w0y -batch "uptime"',
    ),
    (
        "ssh_password_yaml",
        "detect-secrets:KeywordDetector",
        "ssh:\n  host: 10.0.9.4\n  user: backup\n  password: xrlg71Xr#Copapasu",
    ),
    # --- generic ---------------------------------------------------------------------------------
    (
        "password_equals_in_log",
        "detect-secrets:KeywordDetector",
        "INFO ldap bind url=ldap://ldap.acme.local:389 dn=cn=svc-git,dc=acme "
        "password=lZ7OUKQo~tQDpP ok",
    ),
    (
        "passwd_colon_yaml",
        "detect-secrets:KeywordDetector",
        "smtp:\n  user: alerts@acme.io\n  passwd: 7q8GlcL.kSFM4bxI",
    ),
    (
        "pgpassword_env_psql",
        "postgres docs: PGPASSWORD",
        "PGPASSWORD=2DDPpeO~2rVX09c psql -h db.internal -U postgres -c 'select 1'",
    ),
    (
        "mysql_pwd_env_mysqldump",
        "mysql docs: MYSQL_PWD",
        "MYSQL_PWD=bDwRKgv~vMX3M mysqldump -h 10.0.0.8 -u backup shop > shop.sql",
    ),
    (
        "secretkey_one_word",
        "detect-secrets:KeywordDetector",
        "minio: endpoint=s3.acme.local user=minio-ci "
        "secretkey=83kmZ2qY7zbcglCPu8JaB9ul8wFxFyGzU5dMlTzo",
    ),
    (
        "accesstoken_one_word",
        "gitleaks:generic-api-key",
        "GET /v1/export?format=csv&accesstoken=k8qmaOTt2bcDb03Dxk40LNsNwIG4XJct HTTP/1.1",
    ),
    (
        "client_secret_json",
        "gitleaks:generic-api-key",
        '{"client_id": "acme-cli", "client_secret": '
        '"9pxfLG9nYHUMd8lgWcATskrYZ0tnFjO7WzcTieDI", "grant_type": "client_credentials"}',
    ),
    (
        "apikey_camelcase_json",
        "detect-secrets:KeywordDetector",
        'const config = { "apiKey": "pZUrB2ji1wgb7GtWtKlMAYevKCIAQXt2", "region": "eu" };',
    ),
    (
        "x_api_key_header",
        "gitleaks:curl-auth-header",
        'curl -H "x-api-key: WpNjNIpC0E83K8Myld9sdXiAl20cak6LXdN8aPAU" '
        "https://api.acme.io/v1/reports",
    ),
    (
        "authorization_bearer_opaque",
        "gitleaks:curl-auth-header",
        "curl -sS -H 'Authorization: Bearer WAZ7VBk0qybG9bVPyEHkWWwEjCuEpUKx4TYx0c5qlff1cYS-' "
        "https://internal.acme.io/admin/flags",
    ),
    (
        "authorization_basic_header",
        "detect-secrets:BasicAuthDetector",
        "> GET /api/v1/jobs HTTP/1.1\n"
        "> Host: jenkins.acme.io\n"
        "> Authorization: Basic c3ZjLWNpOjA4TSMxMUU3YlN2WFBiMGs=",
    ),
    (
        "cookie_session_header",
        "RFC 6265 Cookie header: session id",
        "Cookie: session=dMmTrjLfg2Lbe9TEp1soxPJHdcWHQAUDvzt0D4ws6pR; csrftoken_present=1",
    ),
    (
        "curl_user_colon_password",
        "gitleaks:curl-auth-user",
        "curl -u admin:r2GU_rWJdiuygB https://nexus.acme.io/service/rest/v1/repositories",
    ),
    (
        "mysql_p_quoted",
        "mysql docs: -p option",
        "mysql -h db01 -u root -p'5.zpRaoN0IJ9' -e 'SHOW DATABASES'",
    ),
    (
        "mysql_p_glued",
        "mysql docs: -p option",
        "mysql -uroot -pU_I7f0VwNvGJ shop < dump.sql",
    ),
    (
        "password_long_flag",
        "detect-secrets:KeywordDetector (--password=)",
        "java -jar migrate.jar --url=jdbc:postgresql://db/app --user=flyway "
        "--password=OUVUZI7DZ35cU6*g",
    ),
    (
        "netrc_password",
        "gnu inetutils docs: .netrc",
        "machine artifacts.acme.io login ci-bot password 2_RgVQQVTVg7JKLSgo",
    ),
    (
        "pgpass_line",
        "postgres docs: .pgpass",
        "db.internal.acme.io:5432:orders:app_user:s4opTrP~35nLbK2J",
    ),
    (
        "docker_login_password_flag",
        "docker docs: docker login -p",
        'docker login registry.acme.io -u ci -p "o3pzlBuVodFyCDIUu^za"',
    ),
    (
        "kubectl_token_flag",
        "kubernetes docs: kubectl --token",
        "kubectl --server=https://10.0.0.1:6443 --token=eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwic3ViIjoic3lzdGVtOnNlcnZpY2VhY2NvdW50OnByb2Q6ZGVwbG95ZXIifQ.aVvV2qXyClz0PDvmhC8lLM3z80rmFSrHPv-C06K2MA0pnfVaI51PrToOrEqW-mhZUDo2myuCjou9D1ZNOWZvjgBa0CHBtyet-fQY4YvBgw5wDNrk8Binz9-X1A1-LX60VFOf9-yqlVCCi2KFx11mLMf0evO2muj-D5BkMZht3vAzYSCVSI67rQRNj_JF6kSj6EPWp47Y_glDCVvY7DOEdxb8Sa-kHTGnYV015vDzySyuzYxX9RymJCRtG_R8_FQU4Jvfc9UoHuw5zTX814_SISNj_VKA2FZzmyT8ufOFC9MxMR75IvxNZ6yzBud181r41MeC_0ruK2Qsjjs-49jnc3 "
        "get pods -n prod",
    ),
    (
        "htpasswd_apr1_line",
        "apache docs: htpasswd (apr1 MD5)",
        "admin:$apr1$u8leuhTU$SNb7pJWEcku3Tt8oLv36cb",
    ),
    (
        "htpasswd_bcrypt_line",
        "apache docs: htpasswd (bcrypt)",
        "ops:$2y$05$pB1c5m15yzH8vK8YQN0rooKAXSz.hx5CYIsLR1Xy4RIPdYvirlpJM",
    ),
    (
        "properties_value_continued_next_line",
        "java Properties: backslash line continuation",
        "app.signing.secret=G3W8qzNhkphOyCYGwm\\\n    7EHFbl1PvEpWTVbnbE\nserver.port=8080",
    ),
    (
        "xml_password_element",
        "keyword form: <password> XML element",
        "<datasource><user>sa</user><password>tBnj8oOAj*o0H4j</password></datasource>",
    ),
    (
        "yaml_password_key",
        "detect-secrets:KeywordDetector",
        "  password: AD9lNIm6~0kJEnUvuxU",
    ),
    (
        "dotenv_db_password",
        "detect-secrets:KeywordDetector",
        "DB_PASSWORD=nTnKrxv~x3QBMd7x",
    ),
    (
        "django_secret_key",
        "django docs: SECRET_KEY",
        "SECRET_KEY = 'f5c5n-asr9oef&$+xpq^je88sk8ak%5=k(evekhrw(50fd^j#v'",
    ),
    (
        "rails_secret_key_base",
        "rails docs: secret_key_base",
        "SECRET_KEY_BASE=757aa7584864127aa684c47d54a07c390e3e69a62dbca51c7dacc022a616723f7609054114ac6dd1a28b7a1962dcde02ceda8f2b51e05ded02c80d782786fa2a",
    ),
    (
        "flask_secret_key",
        "flask docs: SECRET_KEY",
        "app.config['SECRET_KEY'] = "
        "'6e8982d645a3fa17d4ecc9d42597d9e3c616bb60dace3109bda153ea6e04837b'",
    ),
    (
        "git_https_user_password_url",
        "RFC 3986 userinfo in an https URL",
        "git clone https://jenkins:jJmiasbkQC8KR-@git.acme.internal/platform/deploy.git",
    ),
    (
        "pip_index_url_credentials",
        "pip docs: index URL with credentials",
        "pip install --index-url https://ci:iuXdH~lOG6z86ox8@pypi.acme.io/simple/ acme-sdk==2.3.1",
    ),
    (
        "https_proxy_credentials",
        "curl docs: proxy URL userinfo",
        "export https_proxy=http://jdoe:1QCHx_45X2d9@proxy.acme.local:3128",
    ),
    (
        "email_host_password_django",
        "django docs: EMAIL_HOST_PASSWORD",
        "EMAIL_HOST_PASSWORD=hryjujfxiqbffnlo",
    ),
    (
        "openssl_passin",
        "openssl docs: -passin pass:",
        "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout "
        "pass:iHC6qKFqSlQyN.",
    ),
    (
        "powershell_securestring_plaintext",
        "microsoft docs: ConvertTo-SecureString",
        "$pw = ConvertTo-SecureString '7gHa8%rWY1OLu1Mb' -AsPlainText -Force",
    ),
    (
        "api_key_query_parameter",
        "openweathermap docs: appid query parameter",
        "GET https://api.openweathermap.org/data/2.5/weather?q=Oslo&appid=2b38676256b8665d559061aabe323291 "
        "401",
    ),
    (
        "access_token_query_parameter",
        "oauth 2.0 (RFC 6750) query parameter",
        "https://graph.acme.io/v3/me?fields=id,name&access_token=M9VN2cNnXssqoGFTp34JbKNxIaRXCpxLVqF0TBIQOycHSl8UzbuLhEiONlJ7K2vm",
    ),
    (
        "password_in_json_request_body",
        "detect-secrets:KeywordDetector (JSON)",
        'POST /api/login body={"username": "jane", "password": "PN%cyAkzmRK9f", "remember": true}',
    ),
    (
        "github_webhook_secret_env",
        "github docs: webhook secret",
        "GITHUB_WEBHOOK_SECRET=8ed512a9f6cba473484fd8508d70afe9f359d48c",
    ),
    (
        "jwt_signing_secret_env",
        "detect-secrets:KeywordDetector",
        "JWT_SECRET=tC_YrWOtlYtun92hjDlOagKO5MFcQw5mfHIDLnEouewwYtWU",
    ),
    (
        "encryption_key_base64_env",
        "detect-secrets:Base64HighEntropyString",
        "ENCRYPTION_KEY=JsPxaI3c/7j8QA3ASxUF0RA0dsOLgLX63dtJR8tSBm0=",
    ),
    (
        "ldapsearch_w_flag",
        "openldap docs: ldapsearch -w",
        'ldapsearch -x -H ldap://dc01 -D "cn=admin,dc=acme,dc=io" -w xpu4fhr5fTZ-N -b '
        '"dc=acme,dc=io"',
    ),
    (
        "redis_cli_a_flag",
        "redis docs: redis-cli -a",
        "redis-cli -h cache.internal -p 6379 -a 6LYy1k1FPpuLaYtejlvde3NkX6evZpzE INFO replication",
    ),
    (
        "terraform_admin_login_password",
        "gitleaks:hashicorp-tf-password",
        '  administrator_login_password = "iWn2mkUnPt6dfymA"',
    ),
    (
        "wpa_supplicant_psk",
        "wpa_supplicant docs: psk",
        'network={\n    ssid="acme-office"\n    psk="Z!iym5nvxtyrwO"\n}',
    ),
    (
        "js_const_api_key",
        "detect-secrets:KeywordDetector",
        'const API_KEY = "U1I14M9mL6Eugqs94zxL90Pj2MhvuEQiCeJqRAAe";',
    ),
    (
        "go_token_assignment",
        "gitleaks:generic-api-key",
        'token := "079a3315bab6c7019e9163cf22e4b9627f600bca" // TODO move to vault',
    ),
    (
        "drf_token_authorization_header",
        "django-rest-framework docs: TokenAuthentication",
        "Authorization: Token 4e6a99bcf3cb8e3dd195f8bde2437790c47bc121",
    ),
    (
        "x_auth_token_header",
        "gitleaks:generic-api-key",
        "X-Auth-Token: NFjLm5I8OABBtqPn4MHR3HsPbdaV08HQxavs",
    ),
    (
        "toml_api_token",
        "gitleaks:generic-api-key",
        '[tool.acme]\napi_token = "qicvucTQ_NpewmBDH2u3mNzuR9r_56k4SnU_mv53-pth"',
    ),
    (
        "credentials_nested_json_password",
        "gitleaks:generic-api-key",
        '{"smtp": {"host": "smtp.acme.io", "credentials": {"user": "noreply", "password": '
        '"D8obc3G5KO.fTTDf"}}}',
    ),
    (
        "human_password_low_entropy",
        "detect-secrets:KeywordDetector",
        "db_password=Summer2024!",
    ),
    (
        "passphrase_with_spaces_quoted",
        "detect-secrets:KeywordDetector",
        'GPG_PASSPHRASE="correct horse battery staple 42"',
    ),
    # --- hsk -------------------------------------------------------------------------------------
    (
        "hindsight_key_env",
        "service docs: hsk_ + 40 url-safe chars",
        "HINDSIGHT_KEY=hsk_1iNrGjfAZ_jbd-vpDTmA_zOnIpsfqDCoLzu9c4Mc",
    ),
    (
        "hindsight_key_bearer",
        "service docs: hsk_ + 40 url-safe chars",
        "curl -H 'Authorization: Bearer hsk_wiK8GyB6ahV9W92MU_h9adWMMmegSZ0DHqBp1miN' "
        "https://hindsight.acme.io/api/v1/failures",
    ),
    (
        "hindsight_key_in_error_message",
        "service docs: hsk_ + 40 url-safe chars",
        "hindsight.client.AuthError: 401 invalid key "
        "hsk_Yq9V3wn3CXaQhV_QpgF5Pp3k9BQhyt4ryqtOzbfj for project acme/api",
    ),
    # --- structural ------------------------------------------------------------------------------
    (
        "github_pat_glued_to_prefix_word",
        "structural (gitleaks:github-pat)",
        "kubectl create secret generic deploy-ghp_toJbmgj9ZJvVp8eKvdRt7DhBqtyVJ9WCjhSL "
        "--from-literal=x=1",
    ),
    (
        "github_pat_after_ansi_colour",
        "structural (gitleaks:github-pat)",
        "\x1b[31mERROR\x1b[0m token rejected: "
        "\x1b[31mghp_EDf7A21nFCsc5MfZc5O7kTWdDlElRTQIBYI4\x1b[0m (401)",
    ),
    (
        "github_pat_url_encoded_after_3d",
        "structural (gitleaks:github-pat)",
        "GET /oauth/callback?next=https%3A%2F%2Fci.acme.io%2Fhook%3Ftoken%3Dghp_12ZxzTHQmznay35ZV6TENESvW1cevuWAXbX1%26run%3D7 "
        "HTTP/1.1",
    ),
    (
        "slack_token_url_encoded_after_22",
        "structural (gitleaks:slack-bot-token)",
        "payload=%7B%22token%22%3A%22xoxb-61329193907-5656296583986-aHnYQE2jEIzbrbL2HyYR9ZoJ%22%2C%22channel%22%3A%22C05AB12CD34%22%7D",
    ),
    (
        "anthropic_key_json_escaped_u0022",
        "structural (gitleaks:anthropic-api-key)",
        '{"body": "{\\u0022api_key\\u0022: \\u0022sk-ant-api03-P6cDzyKT6eGMECBmcbjdd2NnZryDMYzxEAOUpNLqHdVId1y4wXMXFjq3f3N_pCj6MrZnzb_t-HG-T0HWLXZLJDGoRNzyrAA\\u0022}"}',
    ),
    (
        "github_pat_with_zero_width_space",
        "structural (gitleaks:github-pat + U+200B)",
        "GITHUB_TOKEN=ghp_413sF7ShhWmKL9\u200bjCMHcBNaBebAjtLl17y2KS",
    ),
    (
        "gitlab_pat_with_soft_hyphen",
        "structural (gitleaks:gitlab-pat + U+00AD)",
        "Your token is: glpat-6VqdzMBR7\xadP9vLB-vVrfB (copied from the web UI)",
    ),
    (
        "github_pat_as_json_key",
        "structural (gitleaks:github-pat)",
        '{"tokens": {"ghp_QkdlGkGw0cUrid8XJVWAkrkYzRsdT8mJJLi8": {"scopes": ["repo", '
        '"workflow"], "owner": "ci"}}}',
    ),
    (
        "stripe_key_split_in_yaml_folded_scalar",
        "structural (gitleaks:stripe-access-token)",
        "stripe:\n"
        "  secret_key: >-\n"
        "    sk_live_51ywTQZs9f3AjPRRroNqDp3aUvTG9HiCBWgk8HTOs5\n"
        "    bWFzJcq131X2eEXM3p22qdhE0HXG7c9acWzpGQDSWuyu6yA1WWC3qzg9y\n"
        "  webhook_path: /hooks/stripe",
    ),
    (
        "openai_key_in_escaped_json_in_json",
        "structural (gitleaks:openai-api-key)",
        '{"detail": "{\\"provider\\": \\"openai\\", \\"key\\": '
        '\\"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\\"}"}',
    ),
    (
        "github_pat_followed_by_literal_backslash_n",
        "structural (gitleaks:github-pat)",
        '{"log": "export GITHUB_TOKEN=ghp_wIc1xeu89K8FymCEPE0E1mj1CDH7cXiNHYH5\\nexport CI=1\\n"}',
    ),
    (
        "token_at_start_of_text",
        "structural (gitleaks:npm-access-token)",
        "npm_BZbK7OoRyFDSKTd36KeCTEr7zWJtWekbmRU4 is not a valid npm token (E401)",
    ),
    (
        "token_in_markdown_backticks",
        "structural (gitleaks:gitlab-pat)",
        "I set the token to `glpat-2hZ_b70WPPROeX1Bykik` in the CI settings but the job still "
        "fails.",
    ),
    (
        "token_followed_by_sentence_period",
        "structural (gitleaks:slack-bot-token)",
        "The bot token is xoxb-79770418012-2621082029451-hW38JGmadcezxH4frX0HJbO8.",
    ),
    (
        "token_in_html_data_attribute",
        "structural (gitleaks:stripe-access-token)",
        '<div id="checkout" data-secret="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" '
        'data-mode="payment"></div>',
    ),
    (
        "token_in_python_bytes_repr",
        "structural (gitleaks:huggingface-access-token)",
        "b'Authorization: Bearer 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\\r\\n'",
    ),
    (
        "token_in_set_x_trace",
        "structural (gitleaks:curl-auth-header)",
        "+ curl -sf -H 'X-Api-Key: nTiD3y4ngKMwXFjrwYs8cyrHL1eaKmtf4oZexbF0' "
        "https://deploy.acme.io/v1/release",
    ),
    (
        "token_tab_separated_log",
        "structural (gitleaks:sendgrid-api-token)",
        "2024-05-17T10:12:44Z\tWARN\tmailer\tkey=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\tstatus=401",
    ),
    (
        "token_with_crlf_line_end",
        "structural (gitleaks:aws-access-token)",
        "aws_access_key_id=AKIAVP5PVD5IUCVGLWBZ\r\nregion=us-west-2\r\n",
    ),
    (
        "token_in_oauth_url_fragment",
        "structural (RFC 6749 implicit grant fragment)",
        "Redirected to https://app.acme.io/callback#access_token=ya29.a0AfB_byGI-jO8WVPDNlk5StWXd3vBLwhJtMKOBT65QnSJwtl-_JjyF_slmVDIHliB4k2N8dz5Fr9_5cS5O5cN9IKhhhWnch9YTh6eKJFvLCd4P3JCSx7hvlRlnHYRjG&token_type=Bearer&expires_in=3600",
    ),
    (
        "token_in_windows_set_command",
        "structural (gitleaks:gitlab-pat)",
        "C:\\src\\api> set GITLAB_TOKEN=glpat-O3-ylsaDQIUaS80QPTuz && npm run release",
    ),
    (
        "token_in_parentheses",
        "structural (gitleaks:github-app-token)",
        "using installation token (ghs_M4zVkNjrFYNXt9Z27WCFnAxVu3xUFS98xGTI) for acme/infra",
    ),
    (
        "token_in_traceback_source_line",
        "structural (gitleaks:openai-api-key)",
        '  File "/srv/agent/llm.py", line 88, in call\n'
        "    api_key = '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'\n"
        "openai.AuthenticationError: Error code: 401",
    ),
]

SECRET_VALUES: dict[str, str] = {
    "aws_access_key_id_in_sigv4_debug_log": "AKIALUR3GTATKZNMS7YT",
    "aws_secret_on_line_after_key_id": "qvnp/VTLgRgIXnKDG72ruBceBTqIjziWy6AaUskM",
    "aws_secret_access_key_env": "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",
    "aws_secret_in_boto3_traceback": "8NvNLAqYaso6TKls9z47AUUAz1YF7SJ0d+4Ho72I",
    "aws_asia_temporary_key_id_export": "ASIALWVD336UOJD7TKZF",
    "aws_session_token_credentials_file": "IQoJb3JpZ2luX2VjEHnKmtEK7HYRJn8EN/OiA+uPBrhPwSDUSdp9xRC/npwKOnvx0adE69zIKGusn72GGiNGUELFCDvHayhQoYAbER8pPHJzZbOX5lbAv1DVfZsOsOHdoWBP2n1xIA00rik6+hORrbkaOAQo9T3ChawwabGDOhwS1IKhkqynm8naYOKLjGObbWOJb5sICcJujp13BEhTM8peFZ1rN/lCkvu8fZFM1Fc3bkMoeqxYpFbrwVarj54AwiGN04PoHjMpZaqAOdGZHFha5ONMcXAZeTrHgMaFejuXQUr3jzTxhH90ZrYoDANlE65DOI/AAqkR7/DGcAFbGaiZtKCgA1etG5fCaO/g50aLw4q1zBcHx3HUKdUztqJtYtKyuM6Y1QRsbXg18Vf5HPrhQFKZyaxlQ7iZHKFYVIwwQ4G5nBxBiKIT0rd3KNqy6iIJOEDFAL3AMaoGBhh4s36PhkBoZLXV64INrsVLUdJ2QVfHAg9Nm17T2oah3KsunzK8oYadQBMy2bG2hprLBFebgX1SyLCYh9d2Udg0aN8glt2NyxNY9FBfj4SB8305wQ==",
    "aws_session_token_sts_json": "FwoGZXIvYXdzEJk3KcvhPGNrbSXMKLvkHbBibWTQ44x6dP4iZ9uyqF0IB2y2jCol/9tT9WboYveC/5QjVCjw+tCZxI6dY+Jn0doFlbU0aHb95FW2Add/HiP2iOIAaOra+wUaji4SZCBezul5cgyjobnGbnT9gmZn5HbG3E2YzJX/2TemL8hFk8wz7VP6CoOgDDchhjVa6PdGdPjSppE1lNigLxhwxpR0GU+plrZB7SiNTTp673i7WYEWuefa1pmH4v+kFclXcuvUE74qaYDP7OJyWPR0S1um1z+jIU+QbfJG/flQ0DHEuLebGqjTpqTuCfKCUjIFxhmBSdxKWLFlye6V38HM/0dJAuBTyT4F",
    "aws_bedrock_long_lived_api_key": "ABSKQmVkcm9ja0FQSUtleS16NWNnLWF0LTEwMTU1Mzg0ODgwNDoyQ1p6c1Z4aFVuVU02WXV4cVZWLzBDemZMaTEyZm5XZTh4WGF1YzB4NkxTbmQxc3hZVTgrL1BGSktOQy8=",
    "gcp_service_account_private_key_id": "8733a17648303aed99dfd40c031eac1f99c3447e",
    "gcp_service_account_private_key_json_escaped": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDBNf5QBMNGCBHg\\nx6js4zrfy5UWcY5v3GpSuisgH9dBVF2LxApBN6fvBVVKXRU6IRkRpGZy+e5YspT+\\nPZvYs7GP5oHk9hqmw/NT9nKJZ1DQ4/qvhb1IoLyydqSAGrng9WNfMBppiwKnmowF\\nlhHULCukjRT6QH6Vqn1uLpBC7xosl/Qkp1m5zFfYFL2wF6TDgIpBb0fU93RrMIai\\nyUOo+CE+f6lpmPUboE6orAKjPFoIvhc6foW/eovrTkEZqgXbGticr/iPUYDfxh8U\\nNlP8+GfL43fbFO0HkJczuEjLRHB9qRLuXLK0DoR8ZKfR/07v6Q3+YR1LYFSDG9hQ\\n+qvnD9JhAgMBAAECggEApv0XvgPy+2xpX4cMlDFkIdufwt26DeZ3KI5TcVxLSiFH\\ndYY2KwXNhyQXrxSSkZ32PaO5i3Shgf7s7pNG4YjpStaEzuZ17i/8i7J6GvIW8AgC",
    "gcp_api_key_in_maps_url": "AIza5QJPjKq2rh7QrYJ0UhtN57PVKQSbokUHkJd",
    "gcp_oauth_client_secret_json": "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",
    "gcp_oauth_access_token_bearer": "ya29.a0AfB_bykKHXvQZ_YlECwVM6R0vR-BrmsQr_FHndJArHQAit5DaxWCRZGaXCcDw-uQsjmyR2RPDsqELOajK_dWQXO5A00-VPSHgmHGWjKwQ-0IW3K-j6_Sfxh47-HuQQm2hjv_ZGHHpOcyYr-srtvf5pulW0zqIB2JNFvJtv",
    "gcp_oauth_refresh_token_json": "1//0g68FqIVAc_EzfCkYcMrOqCNel85hp1nZ1bB_aYg4QVTd3QwMjIvt7rboXpPtOH0AsxpkO-Jj6zbmdZTuMSpLGhwd2N_4olg0VO3",
    "azure_storage_connection_string": "xTuGkA9fDIL5QUZZTQ7YzmDHialo8QpW05ueCxWZkUQQEXNpq+6Yna4TXK78URxTsBS+qYCJBFua4dCfbecjYg==",
    "azure_sas_token_sig_in_blob_url": "sg70AKr%2BvKej71ORdiI2A5TkvWH%2BPDmFqhXMrA3Qr2c%3D",
    "azure_ad_client_secret_env": "yWl7Q~42i3i1U71.kRjae0wuZSlPdrA~0At6c_k~",
    "azure_ad_client_secret_appsettings_json": "EU05Q~lSf130leKmljRTN~HeHpNs~24zftqva6Zv",
    "azure_service_bus_connection_string": "gnhgAfz6vlR4gC8WEo4+QslGkG+ry2WInIXHXSTV5m4=",
    "azure_cosmosdb_identifiable_key": "iPHHDXiocgeBxcJME4GPqDW7LVuTnVQj4ZCkgt7PuGFrKoYmwvFf42DgxxzKXFtvSttxPJ15rj9dACDboPqjIJ==",
    "azure_devops_pat_in_clone_url": "zeg7he6dhxjtf7iriijkof363k3bbimnzkytpuepb6vuvuns4gkw",
    "azure_openai_api_key_env": "c0100ac74a0422c964b7e56b97829874",
    "azure_function_key_query": "gLYLuFzgpzMuy1dJidKc1Zt7Offb29CSFHpgKX4db6guAzFuzpeRt4==",
    "digitalocean_pat_doctl": "dop_v1_8355e896a171da20ba101b7dd35b69281d7d38014c1e62923a925b6773b44530",
    "digitalocean_oauth_token_json": "doo_v1_f9e06c13be95601b3f577e449d004e68c567c6ba5d1f9854828419e2175c1b72",
    "digitalocean_refresh_token": "dor_v1_b6545349bd3be717d864cef794ba92bd90af4f97ccc685fb60cb1c091421467d",
    "alibaba_access_key_id_env": "LTAIC2qdoyUUERMt7jskXGje",
    "alibaba_access_key_secret_ini": "nCdo9Iwk7McOo6sC93WniIZnfVlTXv",
    "ibm_cloud_iam_api_key_cli": "5p3TiYks6N7WhhjbxzZYhZqGXmevwgQcf1M5mIHZL__L",
    "ibm_cos_hmac_secret": "7f1a41fed7ba574afd11112cd2ca60288f439797235fde2a",
    "oracle_ocir_auth_token_docker_login": "i2dzZ4Zg#inY(foyh;UJ",
    "oracle_oci_config_pass_phrase": "xrupOLEctm0K16!8wr",
    "github_pat_classic_in_push_url": "ghp_M4Tp2crGRr4AakusXjjLnVovihfvNAbBoj2X",
    "github_pat_classic_auth_header": "ghp_yfEpJn2NzbvXVcoUJlP1OsrnudDNS68oOqgy",
    "github_oauth_token_gh_hosts_yml": "gho_pNEzeVffetkVjzofA0EtcpJ1K6Jfc8SgMlYf",
    "github_user_to_server_token_json": "ghu_rUOqr3aPxyw16ioc8ohxWiwmTp4LAwTZIsrn",
    "github_installation_token_in_remote": "ghs_upef2Ei94Dz1X3oJbyD72Lo09wBlZ2zSn2xv",
    "github_refresh_token_json": "ghr_Ix1WXl7qRDn9kEMdrHT2NJtE1pyEpxH99duc",
    "github_fine_grained_pat_env": "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",
    "gitlab_pat_private_token_header": "glpat-8y7LkrOQUL6FTRllaJBL",
    "gitlab_pat_routable": "glpat-nWy1o8OnBvPiOl808DBvHQr13LOuKL1JJU_f.019yc32cz",
    "gitlab_deploy_token_clone": "gldt-6f1mc9aHijmx0IbW1GHD",
    "gitlab_runner_auth_token_toml": "glrt-Bm93BJeZTHWwnt-xBEk8",
    "gitlab_pipeline_trigger_token": "glptt-e24e7558c92d7b5c9da9ece16ed1832b0be8c754",
    "gitlab_runner_registration_token": "GR1348941ZEjd6UhFGWuW1jhJV-8a",
    "gitlab_ci_job_token": "glcbt-64_mIAm_rA1esm_jnlQnZZR",
    "bitbucket_app_password_remote": "ATBBTbF5lpt2usR38byMiXbf9BQIJunbWpha50E4028C",
    "bitbucket_oauth_client_secret": "Cwv1PDryS31DyPuLzYFZnLVhI3JBSvhPGRqQGykubK9SNjwyIbSsY3hagzk4C2Cg",
    "gitea_access_token_header": "c26ed2ce65eb75cf24a00ad60de7d4ccfebf2576",
    "atlassian_api_token_jira_env": "ATATT3xFfGF0PWe8NeFGtd9OL1so91PZyBQB4JdDQd52nCmoPFVDber__Tjp5BpnH78RqMmOH8jhsJGocs0x_RcfeAfEH2GiVnd249dMuvh5IwCE_QPCl_0CYaJ5MITc_HktMgTBAA3R77RfZOSpLX6--Bazo4Jl69a_T3LClSS-_se9ScaTaMC=05DB6F9F",
    "openai_project_key_env": "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",
    "openai_project_key_python_client": "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",
    "openai_service_account_key": "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",
    "openai_legacy_user_key": "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",
    "openai_admin_key_header": "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",
    "anthropic_api_key_curl_header": "sk-ant-api03-1933Iu3YEAGjjNJ7STObEZLxkQv_TXm7mp1_wN2MF0Jinli94L1C5ggd_3PomNkUSlECpuxl8Dm0yJ8bV6F-b71zC1YVGAA",
    "anthropic_api_key_env": "sk-ant-api03-si5iFwZn1eX0RrGbPL_QOLnkZbkTuRxRWanCGm2eGk00ddks7Vc52pJhHmopZ3jnUC2Z4hjSe5_j7Y0uco0EldD3VI0SBAA",
    "anthropic_admin_key": "sk-ant-admin01-p5rLiDyAxVKbPdsjCDCxjum2NyNtD75YLbLN9uEK2qrahvbJy4LTc_iU9ra2fcL3n5wAfIEH3svv6cs05ZfrWwEF5MIKrAA",
    "cohere_api_key_env": "2KxBz5Jq2CK4ovBIiL2863EXbgJN4Mzb09Ll0jPp",
    "huggingface_token_cli_login": "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",
    "huggingface_token_requests_header": "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",
    "huggingface_org_api_token": "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",
    "replicate_api_token_env": "r8_bZkjObCHkYXQmPFbSc0mkIIsn3yvkfJSCi4AC",
    "groq_api_key_python": "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",
    "mistral_api_key_env": "tjqCDWuumYy64bl7lke6aMT9SyIEhWha",
    "perplexity_api_key_bearer": "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",
    "gemini_api_key_env": "AIzap5jMn4eSzRI8JR-fXUEV08xI_WpXvWpgxpw",
    "xai_api_key_env": "xai-qvihu1OH4W2LEgP8UUIkMYJP2VRbfapyHUqzBZdzBVx2byPbQhfBaumY8laTvzLizCd6hFxOYCjClgFi",
    "openrouter_api_key_env": "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",
    "langsmith_api_key_env": "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",
    "pinecone_api_key_env": "pcsk_GkveCa_qtHnPgc2UMW5tI6Gc1UtmT5hT7S9mR3fqCgbokOe7c6z3mfkQil34ESCBAQJEOc",
    "deepseek_api_key_python": "sk-55ff3ed75d35f99eba6bff3d47c9e84c",
    "elevenlabs_api_key_header": "sk_ea8f3f6d9501246c489fb92ca05361dc0432b1c2aea9af73",
    "stripe_live_secret_key_python": "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",
    "stripe_restricted_key_env": "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",
    "stripe_webhook_signing_secret": "whsec_bRfFJ273wwaymN6NEBEKGRzomIQK46FH",
    "stripe_test_secret_key_curl_user": "sk_test_51pyg49jYkTBxgdcdILRlx10DlE3Zqvqw3Yc063qveoswh9vHh5pBwvzoiQ9C2S9lxPvABNtaM5vAQEWlQ4CTnkgQVSEl8mkPQI",
    "square_access_token_env": "EAAAjXgOW08T_s6I4Dvx8FgXKfUoQHHfuICy8Z8Q0eapI-_onCDhM4x0Dy07Suqc",
    "square_legacy_access_token": "sq0atp-aYPWh15OEdR4fTg2wP4wDc",
    "square_oauth_secret": "sq0csp-tGBY_HVUAGpN-a4zpg3MA0xMPasH8uidThAsRp0SbDF",
    "braintree_paypal_access_token": "access_token$production$lt9a25g9a6thk8pc$239abe37a5638ed41925877b946fbbf5",
    "paypal_client_secret_env": "EstMjKu142qDZOK0A5Yw0H22aXNnlltY17DN8BfXqCA2uGm5G2GxHiHRgCF90ya_s2ZQmaNSfb-f9TLR",
    "shopify_admin_access_token_header": "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",
    "shopify_shared_secret_env": "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",
    "shopify_custom_app_token": "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",
    "plaid_production_access_token": "access-production-93d1e366-b140-4817-914a-3ea72ac7cffc",
    "flutterwave_secret_key": "FLWSECK_TEST-6h4dd8fhacf666af1h7h3c8581d11g8b-X",
    "gocardless_live_token": "live_GpQyCMyLvFsSMR8wdVlWxEmSSrua3E2UMZf_ZLga",
    "slack_bot_token_env": "xoxb-22810599454-8627063209639-nWALogwZfP79K0BeLP4OXwNP",
    "slack_bot_token_python": "xoxb-241394332132-1770925824720-JAno37BP3kdBqKtz0kdSZ8MV",
    "slack_user_token_bearer": "xoxp-96017799759-69890235310-8213294471219-9a0ff8476e8bb8fe985656edd116d263",
    "slack_app_level_token": "xapp-1-A01WB6QKERC-8002547300264-b7a51256b915c315dfb0eaa63bb26797e0c37e7324b66484ca58530f94df0e97",
    "slack_incoming_webhook_curl": "xTGwlpxi7dEJ5KTFsGfFO7CN",
    "discord_bot_token_env": "MTQ0OTMzMzE2MzQ3NTkzNjgwOQ.H54wJz.pEI4xqIT_3ISoBT-n8iU1Aw2VHfxiSo_3HAws3",
    "discord_bot_token_auth_header": "OTI1OTExOTc1MTYwNDMyMjA1.6uIT-W.GqBV5die9psWHLFXaLU6o5fORFz",
    "discord_webhook_url": "Rc8FRXc_SQUCHwgy1Y1vGzOx8qHd2hQMIJpH-OETGGsVaimVx5nRose8kYFiEqyrxaev",
    "telegram_bot_token_in_api_url": "6299368233:AAi6oeAG-9mybK9B7OABfAGGGNrz-X1wfIc",
    "telegram_bot_token_env": "287302641:AAAZOQqO8sxul7n6DcH9zPGl9dKVEiHep1d",
    "twilio_api_key_sid_env": "SK821cc188d7ef6d1fabeb237eeef15ede",
    "twilio_account_sid_with_auth_token": "1a64e8da2cfce64daf70081bd70b23b4",
    "twilio_auth_token_env": "b8fca187a3595f25333e164fec8c314b",
    "sendgrid_api_key_env": "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",
    "mailgun_private_key_curl_user": "key-107d31cce9be813f51e6e6a9081fad4b",
    "mailgun_webhook_signing_key": "ccbd458cb588f4fbebeef834ef890724-a2771d04-d0a10c2d",
    "mailchimp_api_key_env": "314b969fbcfc79b460a8919ece8d4575-us12",
    "postmark_server_token_header": "c93dfa5d-1dd3-4932-b853-1c7e2750a29b",
    "microsoft_teams_webhook": "5f7a6ac9ab645b6fc6e6075522566373",
    "brevo_sendinblue_api_key": "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",
    "datadog_api_key_docker_run": "bb805139a33032d2ba54080dceafa036",
    "datadog_app_key_header": "8d21392546cb5485c8222b9bb20196cf794a78b9",
    "datadog_api_key_agent_yaml": "62de49322411d8d5ebaa5713832d3c0c",
    "newrelic_user_api_key": "NRAK-P8UOW7G4ZOXVEPOSLEVO00CJHAQ",
    "newrelic_insert_key": "NRII-YTfcZxk0DYXkYHfY6Pq7-ZJH2qOSZ7be",
    "newrelic_browser_key_snippet": "NRJS-e295d4b5a87c4aacc3c",
    "newrelic_license_key_env": "a8f2187a48e978a1e1beb0d29956a4b6a8a7NRAL",
    "sentry_dsn_with_key": "99268fd9ab7620d705c9d7b3f2f211a9",
    "sentry_org_auth_token": "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",
    "sentry_user_auth_token_cli": "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",
    "grafana_cloud_access_policy_token": "glc_eyJvIjoiMTgyMjQ4IiwibiI6InN0YWNrLTg4MTc1NC1obS13cml0ZS1jaSIsImsiOiJHQk9HUmtYZU9MSFFtd0RaOE04TnlseGUiLCJtIjp7InIiOiJwcm9kLXVzLWVhc3QtMCJ9fQ==",
    "grafana_service_account_token": "glsa_88e1V3aftg0WrJ2j0wzjylOhc8rtH1pl_8e19a4e6",
    "grafana_legacy_api_key": "eyJrIjoiZjFCNTZtUmxqSmZpNGtSOXcxUnA4V3JXTUhZc1pQQmIiLCJuIjoiY2ktYW5ub3RhdGlvbnMiLCJpZCI6MX0=",
    "pagerduty_rest_api_key": "7lU2eRQNskfIiKjo77qe",
    "pagerduty_events_routing_key": "0ee8d75f07e4cf49fdaf39c5dca7f4e3",
    "honeycomb_api_key_header": "SJFvNnieRjiLVL31OX9nWq",
    "honeycomb_ingest_key_env": "hcaik_01yrnuq8o37avm2kfket0wd88zrznfgecsw4nkiqztmes1o77behmqcfrm",
    "dynatrace_api_token_header": "dt0c01.XC2N5TES8YU1SS6AJDKJ35MQ.7RKI6C6E3M2A084AJHF27970XBQC793I4GRPLZV3WVQMHSFH46XZJ1TR38SAXRFT",
    "splunk_hec_token_header": "17981570-0065-4f26-b6cb-5af7beb5b5e2",
    "npm_token_npmrc": "npm_dqFLyjYEVvIxnnC0v8yhgjxNs6WZxYxsSu5f",
    "pypi_token_twine_password": "pypi-AgEIcHlwaS5vcmcCJGU0MWYyMjBlLTk3OGYtNDEyMC04OTAwLTUxMjRkNWIzNjhjYgACKlsxLFsidXBsb2FkIl0seyJwcm9qZWN0IjoiYWNtZS1jbGllbnQifV0AAAYgRIVEJts6T6FmRe3PI4glVrz53YCy1aBLLOEM936-n4s",
    "pypi_token_pypirc": "pypi-AgEIcHlwaS5vcmcCJDBjYmEzZjJhLWRlNzUtNDYxMC1iY2Q3LTcxOTFkZDNkYmRlYQACKlsxLFsidXNlciJdXQAABiCKA90RVy9qcyQbzqlrPu1gN4E5hvBwPRJV3d_A4B-Raw",
    "dockerhub_pat_password_stdin": "dckr_pat_Fq4yNFIK1X1C11XdPLGz-OCDhZg",
    "vault_service_token_env": "hvs.CAESIoeoFkAL2aouC1uCg2RLvkaF1CA-XfShnnSXHHARUvzaHmgvSGwhI9fx3FtaP4Vf7K4CajSbdbi2HB_UnOVoZT4",
    "vault_batch_token_header": "hvb.AAAAAQ376Vmu_RFwmTJtqhNNloqRJtCRn-CEOgU7icSaGU4Ql525cJY_x10co3HHcbdKnO5DDMZL_by03u0V5oD5Hd6RY6dAABv-EPoj5vRD4fRvhDfsE3D1ofIqpX4HUscLl0_g3WjIY7GoEM",
    "vault_legacy_token_login": "s.ICXG8OX1Avb0fuvLnN0fWg46",
    "terraform_cloud_token_credentials_block": "kl2pYhUvJQprdJ.atlasv1.8jS3U94BT8Qzyq2LlYH4Hb4Qvlqw0oSilqEZOVGaaK9eeEa7SxliGYI47upJCN01gVd",
    "heroku_api_key_uuid_env": "de61257f-2e17-4d41-a49a-d4d68e534cff",
    "heroku_api_key_v2_netrc": "HRKU-AAtH9vqigjLq7pR2pN5vuKsoRuGB4mttgULHA_7Te58CMy4tX7qGAkuJ6yvj",
    "netlify_auth_token_env": "nfp_gdQkzRgSe2W0MZkZzm1aDTpJZjRKQ1BBFqeq",
    "vercel_token_cli_flag": "TZ4IpNASLjGnrEGN3dWz3jbQ",
    "cloudflare_api_token_bearer": "zGeSO1HNwOao---uMLrlooxXOzHz5XNfMOgmXh4W",
    "cloudflare_global_api_key": "b205812f3a1b9276510574d412712695dc6de",
    "cloudflare_origin_ca_key": "v1.0-20b6346ed33aae001b30c181-d678e01754df2d183d7ad9f27b7d8541c1d2d86a50d6b2cab4165b0b189bc3e08e76e237685ec6d2d523807dcad49815066cdd9ebda4a6165ed25f8972cffb93544b2d9b0bdb5efe25",
    "fastly_api_token_purge": "YUjtxpjVbKgPyt53fXSyr-moJhNbYvZH",
    "doppler_personal_token": "dp.pt.AKpNbrFJ5biYkffZ2wI9dxvCRvE7rI2hc9Pn1DtsdK9",
    "doppler_service_token_cli": "dp.st.prd.xuqMc1XCdyoE1I3WhK9Suw6TDqMfvpaVvE856MfC8R9",
    "pulumi_access_token": "pul-3543dac0b4125bd284142deae2556775c7d6b98b",
    "linear_api_key_header": "lin_api_EXDPmLuZ1OY9cLXWpCbiqYzBWO5agtPMWjyuGbwR",
    "notion_integration_secret_legacy": "secret_Yvk0QqxvEWQlToPl3bZ8jG6gyJIqkenuDSJzFuQrO86",
    "notion_integration_token_ntn": "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",
    "airtable_personal_access_token": "patIF8zP2z5bpMUQP.ba38b362037f8150b0c0722b5dcffde90901f3ee779b63360a04530998bf5983",
    "okta_api_token_ssws": "00Bnr2pyOpYjwB1GnkG_6gjEGsmWj80W-CFXEmhAVa",
    "auth0_client_secret_env": "QnwDDIf09I3KDKOhCiEtKQ6zwIi2F4gHHy_5mS7NUHI1LWrSQb8uMDtSOJeRBHxi",
    "artifactory_api_key_header": "AKCpDnFIcNSEwZFBmcWOFCnMDPw7fAs9YEL9u8xl1PK5wfDnPVsvnMeSoxm52AcLyIfo3a8iC",
    "sonarqube_token_scanner_flag": "squ_a6529c94756a4dc970537f746ea144c88e18e624",
    "snyk_token_env": "220508ab-8455-4689-a3b8-01de54894898",
    "circleci_personal_token_header": "CCIPAT_45iDBOHYxc5DeJ6H6iYBrR_7fa4dd6aa3f76fa6e31cf72b979d47ed580e712e",
    "buildkite_api_token": "bkua_464d114bcbd2c1aac963c88077dd669c16388bf9",
    "postman_api_key_header": "PMAK-0e0cae7a2834c79511b3ae8c-1164ee0cf0d29fd2dae4b0a3fa03ffd796",
    "supabase_access_token": "sbp_a17d6950a555f3aa0c6742988886c37d8ba53e67",
    "databricks_token_env": "dapi9ba3ae07263a8868626645f1b3f426b2",
    "flyio_access_token": "fo1_G4eqKa_PlNibUUiRjHKrMfAmfrwCbAopERf5B84U2GG",
    "age_secret_key_file": "AGE-SECRET-KEY-1AA4F5HPUQR0YZKDWUW8K0JXHUFGSSLA7NDDSF3E9YPHXZ3NTM2UG4YMMQP",
    "onepassword_service_account_token": "ops_eyJzaWduSW5BZGRyZXNzIjoiYWNtZS4xcGFzc3dvcmQuY29tIiwidXNlckF1dGgiOnsibWV0aG9kIjoiU1JQZy00MDk2IiwiYWxnIjoiUEJFUzJnLUhTMjU2IiwiaXRlcmF0aW9ucyI6NjUwMDAwLCJzYWx0IjoiN0Z6S29XdWRucGRWV3JkV1dxUE5ibyJ9LCJlbWFpbCI6InpvOXJjOHhneGV0ZDhoZ3VzYzExM3A0eXd0QDFwYXNzd29yZHNlcnZpY2VhY2NvdW50cy5jb20iLCJzcnBYIjoiZDVlNDY4ZmUwZGU1N2I2Zjg5ZWI0Y2IwOGFhNTQxYjJmMDNlMjdiZjZiZDczMGM4NzNmOTQ1NTVmYTA5ZmFkNiIsIm11ayI6eyJhbGciOiJBMjU2R0NNIiwiZXh0Ijp0cnVlLCJrIjoienhPWGt4NUM1THV1WXlzUXJsalRaNzZBc2E2N1RHVFVuNGRsSG9HQnBJVSIsImt0eSI6Im9jdCIsImtpZCI6Im1wIn0sInNlY3JldEtleSI6IkEzLTVFSUtSVi1RNThVRE45UjgxQi1SQ1pVSS0zVjE2Vi05Q1NNTiJ9",
    "rubygems_api_key_env": "rubygems_5fb3d51aceca202d7e0a2f1c9e5dd1043d4b35840e70741f",
    "nuget_config_cleartext_password": "yZx8rZt*0s04UW4U8aK6",
    "kubernetes_secret_yaml_data": "bjh1bmNBSFIwbkN2cDdqMS01",
    "openshift_user_token_oc_login": "sha256~SBHTlrvPulb9tlAE4aBcC9K7VwHxoRq0zM_1KCSFYNf",
    "launchdarkly_sdk_key": "sdk-7c61b4b0-834e-4fed-98eb-80414f68034d",
    "mapbox_secret_token": "sk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6ImNsNDNmbGlmbnJzaGN4bG01Y2Exajd5ZzUifQ.hjcFuW5Cioa_o162wzGDCo",
    "algolia_admin_api_key": "9963091c1fefaeb6118542316d8907a4",
    "hubspot_private_app_token": "pat-na1-fdd06426-3a42-43f2-be14-69d0e2bdd5f3",
    "twitter_bearer_token": "AAAAAAAAAAAAAAAAAAAAAAW3OPlUzPEIPvBejtHoUNv8uUpIDra92eCGbKAdZbzRVvfNinxbjusfmxsj6Z%3DMupZ9ASKAOnivaxpz68XgGG4OVyo4a",
    "facebook_page_access_token": "EAAMiRPTpI3yBcdxihFwZYvAjLqYl6TgVWIRTbpOwfF6MopkSz9SfV6F7VrpvTxfIJw6iB8HU8cTAA9Andu2MFENaRWmZHAvolJlYCWCSNE5tscmxmrE9r8B1edkpKAlsJtB5J8e2r9qkSWf3LAizJeNhtVbnMcqpSC7T36ZD9DEsn9aMK4XbQk8",
    "dropbox_short_lived_token": "sl.nhpUniDPoFbzc_WDZNF7FFdd09zR57d6SJ5PIhn_vD2xOY7CjbQSMIHO9Lx5F4owCUbZYUrWDuKm5aglmJ_Oq2YbFQajJFFGZVB4TEdQXgW_qxvTMvEpxMrI0Vw8R_Moj-s3oBG",
    "postgres_url_env": "K9CUBazIwzUj-TbR",
    "postgresql_url_in_psycopg_error": "zpQwp9BrAX5A_A",
    "sqlalchemy_url_in_traceback": "pLOVTImRSEv~EE2b2Czd",
    "postgres_url_percent_encoded_password": "Wdfk0%40C63c%3AXPj4eS%21",
    "mysql_url": "ex8px.NNkMg8",
    "mongodb_srv_url": "V7CCrdqtNod~0UfR",
    "redis_url_password_only": "TXJr.9kBL1W2Vqt21plabbqs",
    "rediss_url_default_user": "cNsh1ZCn8ZedO0dIfPJgV458f4NqoXPY",
    "amqp_broker_url": "q8~WgsdtiNXNtt5B",
    "jdbc_sqlserver_password": "AF5mbNlJuv~RyD",
    "adonet_connection_string_password": "DadbwHxkXIu0P6^H",
    "odbc_pwd_attribute": "RcEYwatqDY_F6V",
    "planetscale_password_in_url": "pscale_pw_2-tTdNVlOuBWCF8pDkl76OjRC6lRinFTj3dPBPK5qn0",
    "clickhouse_url_password": "8XKmIseXH~SwICUjgH",
    "elasticsearch_basic_auth_url": "8w50LJvJDyJ0tMnSoYyL",
    "spring_datasource_password": "2L7ydyVoUPi_X9d",
    "jwt_bearer_curl": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzg4NDIiLCJyb2xlIjoiYWRtaW4iLCJpYXQiOjE3MTU5NTAwMDAsImV4cCI6MTcxNTk1MzYwMH0.SwsuJMgWcfXbOFAcXxlvaJCLW3KhL5abXKFWgYRR0z_",
    "jwt_access_token_cookie": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsInNpZCI6IjNhNDllYTQ1MzViYTk5MTYiLCJpYXQiOjE3MTU5NTAxMDB9.S8BqkEEtOJlQef19RBmN2SlehjFb4ZN-8r68S7f6yZC",
    "jwt_id_token_rs256_json": "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IjRmZWQzMmY5YTFhNzczNzRjZTM4MTU4NjE4OTFlYzQxYzI3MmJmOGIifQ.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmFjbWUuaW8iLCJhdWQiOiJ3ZWIiLCJzdWIiOiJhdXRoMHw2NjQxZiIsImVtYWlsIjoiamFuZUBhY21lLmlvIiwiaWF0IjoxNzE1OTUwMDAwLCJleHAiOjE3MTU5NTM2MDB9.tVvEOvnj7pnDljslksxP4Qw_EmiVTizM3IHCFlo1K1P1-zcatbMjSYsNdhIdz0iPagDj4rXLMCpNpGsuamDF4s_cprmwNAGXwp5_FRZf9IslRXgX2Gf4dKL8XkqnjxnGVCy5PVqwMe9F_tDL8MGJsyvYmOIZ4fGVK2dJao57gPuUMEdUkJS_ypNWMxhpnBufQJxXc26fPFUEKO_hcKKf8qtWCPVlB0oGtJgTyNiPCT5BMIksWo5F1MkrILJ8pBAI92uInOssQYnJ8DpG5Bc9A8MrOf3wGEZ7Y4A1wuraw-OZhKgxiFeAaFB6XTMiLO9JLKGZg32I90oWfPl12XRPqR",
    "supabase_service_role_key_env": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6Imp6c3R1YWxieHBnY3FyeHFuenprIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoyMDE1NTc2MDAwfQ.MbBBO3n8__ej42SeOcJDDBcjt8EXeLkBhns77kwbNxd",
    "jwt_websocket_query_param": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjk5MSwiY2giOiJvcmRlcnMiLCJleHAiOjE3MTU5NTM2MDB9.kRB9tR72hqj2qlIQEYv1LotHdoFvhqRXZqZ0-G3j_mz",
    "kubernetes_service_account_token_file": "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6InpzTXd6bjRKUGt3Vjc1NWQwV0p1RlRwZEFiSnRWZnZnZmNXaFBGQWxiaTYifQ.eyJhdWQiOlsiaHR0cHM6Ly9rdWJlcm5ldGVzLmRlZmF1bHQuc3ZjIl0sImV4cCI6MTc0NzQ4NjAwMCwiaWF0IjoxNzE1OTUwMDAwLCJpc3MiOiJodHRwczovL2t1YmVybmV0ZXMuZGVmYXVsdC5zdmMiLCJrdWJlcm5ldGVzLmlvIjp7Im5hbWVzcGFjZSI6ImNpIiwic2VydmljZWFjY291bnQiOnsibmFtZSI6InJ1bm5lciJ9fSwic3ViIjoic3lzdGVtOnNlcnZpY2VhY2NvdW50OmNpOnJ1bm5lciJ9.ZRCF39zNNaEHZnCAMCHwJO0yEtduXp_11CPmaAzQ7zw94XkTd_gx85_3h27n1ad4f0YY5NUi9iDGaLRPpFGEvRG65zppaqXq7uQigwJDFHrBhIUYPC5D4gGM99s9e5SqFp_vxs5fvEKrk1bB_t9xjPCAGAW4LX3CgBJg2SfQFr_h9upqwp-9JveSMxLQgIWFI366AAJxUcEKPsDoBqtv4QXMRKuPjfsgC4YxlIPwkZizXbW38OKGOJjzWyhtWbcQKD53iybq-G6QlWMCzXcpRsRMNLzMh6IyqbC5TTgLsk1rlqH1CZ5YFH5jIXEXmIZXzLp9fCwaBj598xipuQIvID",
    "jwt_in_python_repr_dict": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzdmMtYmlsbGluZyIsInNjb3BlIjoib3JkZXJzOndyaXRlIiwiZXhwIjoxNzE1OTUwMzAwfQ.7uzMUCyObk5xTeJ2BymVTqliCyM78gzZHK0dc8k1XJp",
    "pem_rsa_private_key_block": (
        "MIIEpAIBAAKCAQEA+GEMdaA0YjzcSDRT+JmU3ji3M8lS0FBqE9vxExhPiRonYoYb\n"
        "GA9cDCa1LvhqbxUZ9CHwPvNZ4rnBIlBQXl0S1jivu6CsYGKmILvfLOTD3wfO0tod\n"
        "ZdR/yQG81YKlTMP1O+j6bTN3nMnizcgFscBc22J9jQBEjX7OmmFIILtC3BLbPvnr\n"
        "cyp/EE2lE/puG0Qfp6ahK9pxxtWPXWiLMLOTRq2J6jIpDGMLWLNBCalov38oKTTN\n"
        "I9l19BXxRLMAkK1No3emiX3zwzslMXujnFsDjxVfjkBrdZxvdkKoCGd7NzshsR/s\n"
        "uGGU2I5K2cB4awVmSQtLcpQbVP06Yc6mpjSkRQIDAQABAoIBAE6QfbpUpPfREMVX\n"
        "ky69XaWvZqN/atD8RjVVK/JewSKXUMpQ9Lr+T+P1D1DBAqI8DIei4gYRyEo6DR2u\n"
        "jsIydgw1HMkzqfaS3AirmHn3KfHSakxT29IdF0uY+jkg8ryY2M319uQ7B2BQl17C\n"
        "g1WGEfAlOVQwVhYV/DSVbgUV0kk3ENGkVJVsZKSeNjm7/EOuEa3WV4r+e4vwZzeF\n"
        "UuQHhVfaufznUyto5P4FExsORl+R8XgL6Rdw+b0PvfcAAb6HlSw1BHNo3cMMDyHs\n"
        "NDTBWXosqp6mDkeX9kS7Se21q9ZVQvzKRhYI/CaXlk9fXpSoYSoDd261BlusF8hc\n"
        "ClqjBmoCgYEAwL5AYFJcpZfLayTYBCKe8gVqhpHev1lpp0Z3JtBMja3V6fzbfHwv\n"
        "+GhfsVMEjelSOhWGWta6l//cS9kCtiXYSlVtT0lwhEfBxwTHLrkmB70qQnKK1Zll\n"
        "1TCjVkPe1WRaMnO8VfXXGCT6Rtoej/Ov0OOV8a0Zq1njHWjuDwnzIgECgYEAP9kx\n"
        "BudUx99daAqEUil/vE83viqAQEiicZn7jwlCe9xC8vVH0joXS/EPgNXndS/z8uhn\n"
        "K9IWP9jzBRUJryZlWsaBKGQ314hnJG+Oc9+FpYWlpzlFjk/Y/7VkPUZ3G9Jtz2fk\n"
        "zf0KsMjgf08kjzyKh3NpexTqe+wDR2DH7YMiJBgCgYBvDOif+Pl3RkQzZ1GvbIeG\n"
        "qf+r5pajLi+1bpaeGssIjjku8i2rG8KYxMcEgwrJl2+Lm7nHy6X08YZ4xP2PncDS\n"
        "YGdIgpGvGw47t2Kroty+KZpiqH4N8J5LOcIIrqX69rmP+YDSA/nNVNfaqdMcoLI3\n"
        "gp9NgZVzhv+bHGT3p8LX6AKBgDsCUuhyV3GS5awD9C6x9oAShdG/KPQDDOJ3kzmk\n"
        "dmPUFZBIMM1awiVnJfF+StuTQffodSc9lykM+RoX26QPXkwsRKynzHqLyb3TIqUr\n"
        "lxAyN2J5yLYLawBavrEEmiKqcddIJIYKz5P2kNtIChWstCjuu6DhXbll7hiz21Oe\n"
        "NNuiAoGAEBz1wo2hKAMrDShH3SeAo76FU/Ij9FsamuOUmE7C87sQ+sCLx5cbBij3\n"
        "R8W6SY59CeysloLyxs0VBP/n2lxysykV00Zc3q0fb39nJ3xX322gm3R700KDW9Q9\n"
        "6ptx0xq8Dq/Nzt0wiEpAWREhZSirEYkPQspfRB1vzMLyh+ySSec="
    ),
    "pem_ec_private_key_block": (
        "MHcCAQEEIOMqvHJ1MScKp/BLUSZ+CcTcS0hEz9b5NqMSgn1o6fZIoAoGCCqGSM49\n"
        "AwEHoUQDQgAEcitNiG3KsURtIu3zEs5h7a+A/VdQj/HbpniWJ+SQSAJwe9EM7KPJ\n"
        "/36FG5I1uyJuVpV5ZE0jcepDyGVMjdGSzw=="
    ),
    "pem_openssh_private_key_block": (
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
        "QyNTUxOQAAACDZ+JRPt87IePNFroQhfu/ay0AjQoJ9AO9b4Mlm6ra6TAAAAJjJCO5kyQju\n"
        "ZAAAAAtzc2gtZWQyNTUxOQAAACDZ+JRPt87IePNFroQhfu/ay0AjQoJ9AO9b4Mlm6ra6TA\n"
        "AAAECeCdxRYctnkLg1NLGyBJr06KmBFYr3g8HqnCsAJp+T3dn4lE+3zsh480WuhCF+79rL\n"
        "QCNCgn0A71vgyWbqtrpMAAAAE2RlcGxveUBjaS1ydW5uZXItMDcBAg=="
    ),
    "pem_pgp_private_key_block": (
        "lQOYBGZBpo0BCADpX/pdByopxEljkQ+wgYXKdP/S5wu69VfsYjsaxbzrGi7fVHUo\n"
        "Pk06THVJXK6FeHlCvqcZqXOPHwnOcd1TUZ0QMpPb8xN6/Fl2FcQR+vOcV/GdRTu7\n"
        "zwaCuDCEieOVTL4EGAL3ldWjqgPmGuxRYh58c6QkFYi2C9BvQtAR9ALQKX4hG+fk\n"
        "R4h2W3cMrvZJuzMItC01d9jQme0/Ikgfpsl9rwogYxWmxVYCZDdRDqGPNkR7D8XW\n"
        "+T3Zbf1M/qg5LkjJ4f3oRb6BtWUuLbExESQjN741EtM/vhfzIBEZpVDZyr6IE1DX\n"
        "wQjJddDH+nAr+sG/+F5ASYhRTZ6ybnjcrZpZ54hAynPBdIzUO6GUvLDJottgh3RG\n"
        "v0iSBCtlYz9us+Z3nfZkkJJU2UzI0Fyz6IskxU/8WNKxUYADfmprU2Zrhxg7p6kO\n"
        "4wbVPh94Jp/3UxMq+Bqa6/CFINY2QouVkOG+N5bkDE7ZOoS/1DNR+WVHptysIWXX\n"
        "6XRBXbuzrClhxS0ZqJm2cYsApTQlfsoEb8hH"
    ),
    "pem_pkcs8_private_key_block": (
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDB+2KObSWv1IH5\n"
        "+C+BDDDP45vlP1GdNFEw35B/2qxnsm9sVIGsZTgR1jwH85B5Fzh7VzmAroculvt2\n"
        "E4lZECCIbp0ac//UuEvNR/VK4AgEV5tbAufY8ht21ixOb4W1vC0+m1vTHDS/bqBw\n"
        "4/lInm+nwuKLXMXMStN6K6Yk7wKysujSkhiovVLZ8wvs/eCydb/LvMYJY7oAnKQM\n"
        "NSKtew28b3X5vXHci59WMv0FBHgbZutOvlkt5GNKZuhaPMC7ITeDyNgY1UVZGeVB\n"
        "+ho1aHbB8otbg3lnlEZb3uM7Mje3fyJ9IIZ7ZesVUF19gbFrHZeCPDIatci/MNtc\n"
        "ffeIVPfUAgMBAAECggEAVf52XMN9my2NpinUmtGxs6jkIH3++AfDfwFud6dbfH1f\n"
        "NW2Y96W9xZDaPyGMYIy8r2Hv9iX+mZndSuF4eEFDUftJ0nB/MkoP1FB0oTtMEnR7\n"
        "jddf255+5o8BQist+fcizTSCm1tgsZIZy+g2X3g2VeORcB+mdejoHGx7cgBDvAFM\n"
        "eJrSnDdgt2wahtp2LYebHg4LyM55wElRNRGC3JVWYJHrToJ44emgFwC7oc+uNCby\n"
        "XfAvfsrHSO/4aNOn6P1SC5j1XXw0u2186XYguvhAHFjGNyECCUxZS5iyUSMCdj1P\n"
        "LqPPlTcDpVrnsEeFh295+GOnCRU9L+f3kuiOkv3vZYifbITL7gYO8HS894VoZp4D"
    ),
    "pem_encrypted_private_key_block": (
        "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQIYrONRDGp48sCAggA\n"
        "MBSKyeuOw4LgXmI2E8CVmDR39kjLQMik2QzCCJ3kblANjjqqNz3bWemrqo02wVcx\n"
        "R9H1RvhQ0BCEYSww8ol4bop3JIqzyeZ1aJC7rJ68BHf0mqvRfDr08AP6683epjcA\n"
        "kCB9Mj9qVWwJDNoAdJpy4bGLaJwmcBas+5ls+SKK+ScgLj8O1PLWD5qDQbYNju6v\n"
        "3pXXdRQrgDC+AFXgLo6fN8dU54ICJlSeYj/iWLQnG+gnj1Eb46ei1LhcmCW5rtLM\n"
        "rLWjZAnfVCFJYM2S9WRm5VPWPxVYyt+g6ylFtIu6XWKFVkYrZp+z7O1NA87g8aGZ\n"
        "I7GOVuaMlGYglW7slOxfDbqJTkLb+1QXT1o8nNks07YPah+yqkm4OFaMaxPSmrEW\n"
        "onPVvj5SROjncrSxSl/6W8ucfGPBMTzWd2k6VJp5xtiK29r0rBhe+B5ovSI7M3X5\n"
        "2b2rExfDxbWaBrcz/vnneSKqJBfCLRWp9hTgjrQLLUctbrvvTIRJJZLkAE0K0DYI\n"
        "CE2zVIHNXPZK2S1RsQwB4qZT2/T7iwfV8LoeP5F7zqfOUR4qptQ="
    ),
    "pem_rsa_lines_as_json_list_items": 'MIIEpAIBAAKCAQEA3h0P8P9S8Z1b4K+DsfHA2Tbz5BId8tP5zd45ZL6MJ4GVveSO", "Djhtj/7qS33nQIOdWLILArIfntcS3Ef0i7g5btebWYBUyL3Si+9RVPmu0ATFHT1f", "sulNqOlg+uvWYnAfnWcRb6257pD2X3LyY2xCk49Pxe054CmxHkD+mPVcA2vmbBS8", "uiXvgwqZuwKRxwt9VD6wLRTiYVphinwISVJV9Sv4M+wEL9Np3z5Dn0mmz04SDVUI", "St/1EwtmQT6lSPSX3oEqPiDXHr/q90PQGtliUitC91q8Lh56CTV690GcvG/EuYXN", "NYMaW41ONQIhjKT5v2FYiWgT4808gX1OhFBu5wIDAQABAoIBACa6FyaED5DVSh1Q',
    "pem_rsa_literal_backslash_n_env": "MIIEpAIBAAKCAQEA7NvrgwrCMCR3FTOTbdlOtSRpD+957c2vEX/m+EKG/C6jDAn6\\n7+5CB670QkofbpaeJxNQgMib91LKCMZkZh5IzQs+I4STFwjpxWJTphaKc6Sxw//w\\ndUf0jd31OEo/ygiJwnV3Uj3+2SwNQz5tSj/0i8+zEAF6CryGee2xPbBWE6DpvRN0\\nAIF2ey4uIyTAS+VcejymxnEUUUiSgNxX3tK5JYYIsVccQG5KmXVS0M/xoInUDx7z\\n2P8lFWCQWWBU6St/1/djiBtVWnYtKLasH+Z3W0NhLmfxXfNEXnOza56jrHOFMtoW\\nYCujqKbVEUv5Z9eN685G5ERHOQvANDLRGj2+TwIDAQABAoIBAKLEniBJVj6+xBBi",
    "pem_ec_key_in_yaml_block_scalar": (
        "MHcCAQEEIMuQmLP9gd/YjyshSTPgZQd2PsauHC1UdPgmwfWwdiXRoAoGCCqGSM49\n"
        "    AwEHoUQDQgAEJUieGTkd5OeoC6hVZM7IZ5vpBLU+Jj0cB2JeTV3I4JwLAOa2NeCs\n"
        "    RIbsGGHgzvJ497fpXmxqeL3a4zTWocR2qg=="
    ),
    "sshpass_password_flag": "A5.3RqN27Z19sM",
    "paramiko_connect_password": "kLUPUqyWm4.U28m1",
    "ansible_ssh_pass_inventory": "N3GsU9JC_h0dj",
    "plink_pw_flag": "1LU5E~EP7w0y",
    "ssh_password_yaml": "xrlg71Xr#Copapasu",
    "password_equals_in_log": "lZ7OUKQo~tQDpP",
    "passwd_colon_yaml": "7q8GlcL.kSFM4bxI",
    "pgpassword_env_psql": "2DDPpeO~2rVX09c",
    "mysql_pwd_env_mysqldump": "bDwRKgv~vMX3M",
    "secretkey_one_word": "83kmZ2qY7zbcglCPu8JaB9ul8wFxFyGzU5dMlTzo",
    "accesstoken_one_word": "k8qmaOTt2bcDb03Dxk40LNsNwIG4XJct",
    "client_secret_json": "9pxfLG9nYHUMd8lgWcATskrYZ0tnFjO7WzcTieDI",
    "apikey_camelcase_json": "pZUrB2ji1wgb7GtWtKlMAYevKCIAQXt2",
    "x_api_key_header": "WpNjNIpC0E83K8Myld9sdXiAl20cak6LXdN8aPAU",
    "authorization_bearer_opaque": "WAZ7VBk0qybG9bVPyEHkWWwEjCuEpUKx4TYx0c5qlff1cYS-",
    "authorization_basic_header": "c3ZjLWNpOjA4TSMxMUU3YlN2WFBiMGs=",
    "cookie_session_header": "dMmTrjLfg2Lbe9TEp1soxPJHdcWHQAUDvzt0D4ws6pR",
    "curl_user_colon_password": "r2GU_rWJdiuygB",
    "mysql_p_quoted": "5.zpRaoN0IJ9",
    "mysql_p_glued": "U_I7f0VwNvGJ",
    "password_long_flag": "OUVUZI7DZ35cU6*g",
    "netrc_password": "2_RgVQQVTVg7JKLSgo",
    "pgpass_line": "s4opTrP~35nLbK2J",
    "docker_login_password_flag": "o3pzlBuVodFyCDIUu^za",
    "kubectl_token_flag": "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwic3ViIjoic3lzdGVtOnNlcnZpY2VhY2NvdW50OnByb2Q6ZGVwbG95ZXIifQ.aVvV2qXyClz0PDvmhC8lLM3z80rmFSrHPv-C06K2MA0pnfVaI51PrToOrEqW-mhZUDo2myuCjou9D1ZNOWZvjgBa0CHBtyet-fQY4YvBgw5wDNrk8Binz9-X1A1-LX60VFOf9-yqlVCCi2KFx11mLMf0evO2muj-D5BkMZht3vAzYSCVSI67rQRNj_JF6kSj6EPWp47Y_glDCVvY7DOEdxb8Sa-kHTGnYV015vDzySyuzYxX9RymJCRtG_R8_FQU4Jvfc9UoHuw5zTX814_SISNj_VKA2FZzmyT8ufOFC9MxMR75IvxNZ6yzBud181r41MeC_0ruK2Qsjjs-49jnc3",
    "htpasswd_apr1_line": "$apr1$u8leuhTU$SNb7pJWEcku3Tt8oLv36cb",
    "htpasswd_bcrypt_line": "$2y$05$pB1c5m15yzH8vK8YQN0rooKAXSz.hx5CYIsLR1Xy4RIPdYvirlpJM",
    "properties_value_continued_next_line": ("G3W8qzNhkphOyCYGwm\\\n    7EHFbl1PvEpWTVbnbE"),
    "xml_password_element": "tBnj8oOAj*o0H4j",
    "yaml_password_key": "AD9lNIm6~0kJEnUvuxU",
    "dotenv_db_password": "nTnKrxv~x3QBMd7x",
    "django_secret_key": "f5c5n-asr9oef&$+xpq^je88sk8ak%5=k(evekhrw(50fd^j#v",
    "rails_secret_key_base": "757aa7584864127aa684c47d54a07c390e3e69a62dbca51c7dacc022a616723f7609054114ac6dd1a28b7a1962dcde02ceda8f2b51e05ded02c80d782786fa2a",
    "flask_secret_key": "6e8982d645a3fa17d4ecc9d42597d9e3c616bb60dace3109bda153ea6e04837b",
    "git_https_user_password_url": "jJmiasbkQC8KR-",
    "pip_index_url_credentials": "iuXdH~lOG6z86ox8",
    "https_proxy_credentials": "1QCHx_45X2d9",
    "email_host_password_django": "hryjujfxiqbffnlo",
    "openssl_passin": "iHC6qKFqSlQyN.",
    "powershell_securestring_plaintext": "7gHa8%rWY1OLu1Mb",
    "api_key_query_parameter": "2b38676256b8665d559061aabe323291",
    "access_token_query_parameter": "M9VN2cNnXssqoGFTp34JbKNxIaRXCpxLVqF0TBIQOycHSl8UzbuLhEiONlJ7K2vm",
    "password_in_json_request_body": "PN%cyAkzmRK9f",
    "github_webhook_secret_env": "8ed512a9f6cba473484fd8508d70afe9f359d48c",
    "jwt_signing_secret_env": "tC_YrWOtlYtun92hjDlOagKO5MFcQw5mfHIDLnEouewwYtWU",
    "encryption_key_base64_env": "JsPxaI3c/7j8QA3ASxUF0RA0dsOLgLX63dtJR8tSBm0=",
    "ldapsearch_w_flag": "xpu4fhr5fTZ-N",
    "redis_cli_a_flag": "6LYy1k1FPpuLaYtejlvde3NkX6evZpzE",
    "terraform_admin_login_password": "iWn2mkUnPt6dfymA",
    "wpa_supplicant_psk": "Z!iym5nvxtyrwO",
    "js_const_api_key": "U1I14M9mL6Eugqs94zxL90Pj2MhvuEQiCeJqRAAe",
    "go_token_assignment": "079a3315bab6c7019e9163cf22e4b9627f600bca",
    "drf_token_authorization_header": "4e6a99bcf3cb8e3dd195f8bde2437790c47bc121",
    "x_auth_token_header": "NFjLm5I8OABBtqPn4MHR3HsPbdaV08HQxavs",
    "toml_api_token": "qicvucTQ_NpewmBDH2u3mNzuR9r_56k4SnU_mv53-pth",
    "credentials_nested_json_password": "D8obc3G5KO.fTTDf",
    "human_password_low_entropy": "Summer2024!",
    "passphrase_with_spaces_quoted": "correct horse battery staple 42",
    "hindsight_key_env": "hsk_1iNrGjfAZ_jbd-vpDTmA_zOnIpsfqDCoLzu9c4Mc",
    "hindsight_key_bearer": "hsk_wiK8GyB6ahV9W92MU_h9adWMMmegSZ0DHqBp1miN",
    "hindsight_key_in_error_message": "hsk_Yq9V3wn3CXaQhV_QpgF5Pp3k9BQhyt4ryqtOzbfj",
    "github_pat_glued_to_prefix_word": "ghp_toJbmgj9ZJvVp8eKvdRt7DhBqtyVJ9WCjhSL",
    "github_pat_after_ansi_colour": "ghp_EDf7A21nFCsc5MfZc5O7kTWdDlElRTQIBYI4",
    "github_pat_url_encoded_after_3d": "ghp_12ZxzTHQmznay35ZV6TENESvW1cevuWAXbX1",
    "slack_token_url_encoded_after_22": "xoxb-61329193907-5656296583986-aHnYQE2jEIzbrbL2HyYR9ZoJ",
    "anthropic_key_json_escaped_u0022": "sk-ant-api03-P6cDzyKT6eGMECBmcbjdd2NnZryDMYzxEAOUpNLqHdVId1y4wXMXFjq3f3N_pCj6MrZnzb_t-HG-T0HWLXZLJDGoRNzyrAA",
    "github_pat_with_zero_width_space": "ghp_413sF7ShhWmKL9\u200bjCMHcBNaBebAjtLl17y2KS",
    "gitlab_pat_with_soft_hyphen": "glpat-6VqdzMBR7\xadP9vLB-vVrfB",
    "github_pat_as_json_key": "ghp_QkdlGkGw0cUrid8XJVWAkrkYzRsdT8mJJLi8",
    "stripe_key_split_in_yaml_folded_scalar": (
        "sk_live_51ywTQZs9f3AjPRRroNqDp3aUvTG9HiCBWgk8HTOs5\n"
        "    bWFzJcq131X2eEXM3p22qdhE0HXG7c9acWzpGQDSWuyu6yA1WWC3qzg9y"
    ),
    "openai_key_in_escaped_json_in_json": "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",
    "github_pat_followed_by_literal_backslash_n": "ghp_wIc1xeu89K8FymCEPE0E1mj1CDH7cXiNHYH5",
    "token_at_start_of_text": "npm_BZbK7OoRyFDSKTd36KeCTEr7zWJtWekbmRU4",
    "token_in_markdown_backticks": "glpat-2hZ_b70WPPROeX1Bykik",
    "token_followed_by_sentence_period": "xoxb-79770418012-2621082029451-hW38JGmadcezxH4frX0HJbO8",
    "token_in_html_data_attribute": "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",
    "token_in_python_bytes_repr": "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",
    "token_in_set_x_trace": "nTiD3y4ngKMwXFjrwYs8cyrHL1eaKmtf4oZexbF0",
    "token_tab_separated_log": "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",
    "token_with_crlf_line_end": "AKIAVP5PVD5IUCVGLWBZ",
    "token_in_oauth_url_fragment": "ya29.a0AfB_byGI-jO8WVPDNlk5StWXd3vBLwhJtMKOBT65QnSJwtl-_JjyF_slmVDIHliB4k2N8dz5Fr9_5cS5O5cN9IKhhhWnch9YTh6eKJFvLCd4P3JCSx7hvlRlnHYRjG",
    "token_in_windows_set_command": "glpat-O3-ylsaDQIUaS80QPTuz",
    "token_in_parentheses": "ghs_M4zVkNjrFYNXt9Z27WCFnAxVu3xUFS98xGTI",
    "token_in_traceback_source_line": "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",
}

# LOOKALIKES: (name, text) -- secret-shaped but not secret; must be left unchanged.
LOOKALIKES: list[tuple[str, str]] = [
    # --- vcs-ids ---------------------------------------------------------------------------------
    (
        "git_short_sha_reset",
        "HEAD is now at 3f9c2a1 fix: retry on 503 from upstream",
    ),
    (
        "git_full_sha_log",
        "commit 9f6e859149dcd3d6041fb6f228862fa5c3af2758\n"
        "Author: Jane Doe <jane@acme.io>\n"
        "Date:   Fri May 17 10:12:44 2024 +0200",
    ),
    (
        "git_rebase_could_not_apply",
        "error: could not apply 7e1d2c4... refactor tokenizer cache",
    ),
    (
        "github_api_sha_field",
        '{"ref": "refs/heads/main", "sha": "47e333ccf8df9bdce9e263a110de544d893247bc"}',
    ),
    (
        "github_actions_head_sha",
        "head_sha=1350bf4eec60d6408af650bb1d8c5b738b13f7b7 conclusion=failure",
    ),
    (
        "git_branch_mentions_api_keys",
        "Switched to branch 'feature/rotate-api-keys-3f9c2a1'",
    ),
    (
        "yarn_lock_resolved_sha1",
        'resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#6dca860c5872a3ab1c212bfa4c41d798ea9a56e9"',
    ),
    # --- ids -------------------------------------------------------------------------------------
    (
        "uuid_request_id",
        "request_id=ea2772e1-f35c-46cf-8bb1-4c9d070b76f4 status=500 path=/v1/orders",
    ),
    (
        "uuid_in_url_path",
        "GET /api/v1/orders/55622909-4320-4eb6-a345-ad78f84b1f19 404 Not Found",
    ),
    (
        "aws_request_id_hex",
        "x-amz-request-id: EB1AA408ABFE6095",
    ),
    (
        "aws_extended_request_id",
        "x-amz-id-2: fSAPUGpJb0hH6k8qFQ4Mo9DBKpESJtptuhaJxfeREGw7wVcx+jeiJ2wnY2B3ydqXbqGdHoWVBFzy",
    ),
    (
        "w3c_traceparent",
        "traceparent: 00-a6a2390ee9f285b2e708e059e99a1ee5-66b9926445c9de2a-01",
    ),
    (
        "datadog_trace_and_span_ids",
        "dd.trace_id=4334506554826209685 dd.span_id=584247308545742103",
    ),
    (
        "aws_account_id_sts_output",
        '    "Account": "849910175150",',
    ),
    (
        "azure_tenant_id_uuid",
        "AZURE_TENANT_ID=39566017-d841-433c-b965-9dde19c65576",
    ),
    (
        "terraform_state_lineage",
        '  "lineage": "d1b0834a-e0c9-42de-b143-6a5215ec5d2b",',
    ),
    (
        "windows_device_class_guid",
        "Class GUID {4D36E972-E325-11CE-BFC1-08002BE10318} (Net)",
    ),
    (
        "google_analytics_measurement_id",
        "gtag('config', 'G-LEKMXZYQ03');",
    ),
    (
        "google_oauth_client_id_public",
        "client_id=850610258076-3y33414c9g4z1demxbrttoetjurjee3p.apps.googleusercontent.com",
    ),
    (
        "sentry_project_id_without_key",
        "See https://acme.sentry.io/issues/?project=6076286469470539 (org o6329745)",
    ),
    (
        "slack_channel_and_user_ids",
        "posted to channel C05AB12CD34 by U04XYZ98765 (ts 1715950000.123456)",
    ),
    (
        "discord_snowflake_ids",
        "user 1479517939412196817 joined guild 981114022753842210",
    ),
    (
        "stripe_charge_and_customer_ids",
        "charge ch_3PGk2bLkdIwHu7ix0Q8eZ1Yx for cus_Q2xYz8AbCdEf12 failed: card_declined",
    ),
    (
        "stripe_event_id",
        "Received event evt_1PGk2bLkdIwHu7ixQ0pZ3aBc type=invoice.paid",
    ),
    (
        "openai_completion_id",
        '"id": "chatcmpl-9QxZ3kLmN8pQrS2tUvWxYz01AbCdE", "object": "chat.completion"',
    ),
    (
        "anthropic_message_id",
        '{"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant"}',
    ),
    (
        "anthropic_request_id",
        "request-id: req_011CPLsWyVnAzcZu6c3b5qM1",
    ),
    (
        "unix_timestamps_and_counters",
        "ts=1715950000123 seq=8812734 offset=4096",
    ),
    # --- digests ---------------------------------------------------------------------------------
    (
        "sha256_prefixed_digest",
        "sha256:5b69c8cc76f68a1149de0a2de81f9a4ffd8fbc6392e0976e630788d4fe3006ea",
    ),
    (
        "md5_etag_header",
        'ETag: "7f921b4bb053da55f56b0886ebf173c7"',
    ),
    (
        "checksum_equals_sha256",
        "checksum=42a9644c42039c691bed4e9e69e2969b2458c9aa8ae116ab2429ce41e7895d99 "
        "file=release-2.3.1.tar.gz",
    ),
    (
        "md5sum_output_empty_file",
        "d41d8cd98f00b204e9800998ecf8427e  empty.txt",
    ),
    (
        "sha1sum_output",
        "e60a2a36a67e555fb08b38ed23621a4f7e7eed93  acme-cli-2.3.1-linux-amd64.tar.gz",
    ),
    (
        "docker_image_digest",
        "Pulling ghcr.io/acme/api@sha256:f5e784f02882ecf7203957cb0c43c5d11f1dbd6a6094a5b167936bb479078b0a",
    ),
    (
        "docker_container_id_64hex",
        "Container dda1446c35d39e180cb64a9cb84e5c8e457c2ba6fd9d08697881998f23baa57b  Started",
    ),
    (
        "docker_image_id_short",
        "REPOSITORY  TAG     IMAGE ID       SIZE\nacme/api    2.3.1   5d0da3dc9764   142MB",
    ),
    (
        "npm_integrity_sha512",
        '"integrity": "sha512-ieZsBC0OTF5qGYRokzSF27f/8qRo2Q5ANhTiDfi+o7I28otChfEkXxeTgb5VZ5P3fQOp+C13I6s5aZRN11rCUw=="',
    ),
    (
        "pip_hash_sha256",
        "requests==2.32.3 "
        "--hash=sha256:9932da55d231b10f42a4ca3a18ca26040ea66f92c9a22eb9b9fb27260b8b7e17",
    ),
    (
        "go_sum_h1_hash",
        "golang.org/x/crypto v0.23.0 h1:g//Z8kkb3BDqpYjU51PnODiAFzMBKFdBT4YF3MtYMQc=",
    ),
    (
        "cargo_lock_checksum",
        'checksum = "f547054658b23378aa327dbaf7d2cfb2cbe1bbabb73a52b0115cdf4cf3698a1f"',
    ),
    (
        "subresource_integrity_sha384",
        '<script src="/app.js" '
        'integrity="sha384-Oa//xRRHYdAhZKAp28RrGVkEl/5fIN+U7Q0Z3JfRA1ijZ86hkbSIUe9LPomsdnVP" '
        'crossorigin="anonymous"></script>',
    ),
    (
        "ssh_key_fingerprint_sha256",
        "256 SHA256:kmnBzD9kQAKzu9hOyYJTM44cN3hJa4TOJc5pIwqiMK0 jane@laptop (ED25519)",
    ),
    (
        "tls_cert_sha1_thumbprint",
        "Thumbprint: 62:BD:52:41:59:37:F7:87:D8:A9:FC:B4:D8:A0:8E:B7:2D:D6:7F:15",
    ),
    (
        "nix_store_path_hash",
        "/nix/store/raj0c8gxmiwd3fjrmgx68d6kxjqy17k4-python3-3.11.9",
    ),
    (
        "git_lfs_pointer_oid",
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:34925dcd39e8cf54740e6d4bd91c1849a7216d9d2f42086fa33429e087ecbdb6\n"
        "size 1048576",
    ),
    # --- cloud-ids -------------------------------------------------------------------------------
    (
        "aws_iam_role_arn",
        "arn:aws:iam::270923730417:role/ci-deploy",
    ),
    (
        "aws_kms_key_arn",
        "arn:aws:kms:us-east-1:190585862882:key/59d2776b-617e-4327-ad34-fe11f37092dc",
    ),
    (
        "aws_secretsmanager_arn_name_only",
        "AccessDeniedException: not authorized to perform secretsmanager:GetSecretValue on "
        "resource arn:aws:secretsmanager:us-east-1:798221804816:secret:prod/db-password-AbCdEf",
    ),
    (
        "s3_object_key_with_hash",
        "s3://acme-uploads/tenants/42/avatars/5b769973429564c3.png",
    ),
    (
        "kubernetes_pod_name_hash_suffix",
        "pod/api-server-7d9f8b6c5d-x2k4p   0/1   CrashLoopBackOff   5   3m",
    ),
    (
        "kubernetes_replicaset_name",
        "replicaset.apps/worker-5c6b7d8f9 scaled to 3",
    ),
    (
        "kubernetes_secret_key_ref",
        "env:\n"
        "- name: DB_PASSWORD\n"
        "  valueFrom:\n"
        "    secretKeyRef:\n"
        "      name: db-credentials\n"
        "      key: password",
    ),
    # --- public-keys -----------------------------------------------------------------------------
    (
        "stripe_publishable_live_key",
        "Stripe('pk_live_51uupCcRPILNiAC9DKMDCUw8xCQoJHdm77GGqDBXiJNUvkESzPlqNzy90ofKaBbVp9fLrM4XfptIAKW2zeOe6GosDjOCquH5SnD');",
    ),
    (
        "stripe_publishable_test_key",
        "STRIPE_PUBLISHABLE_KEY=pk_test_51EyiZHBdebHwm2mYde7N8eI70Gtl6f1M3fGwxa3CXEBmO5S1zXjyD5UYjK3Xa37QPCroNxicIRLQvOMONElhy2GmatGeypZaG0",
    ),
    (
        "mapbox_public_token",
        "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6ImNsNDNmbGlmbnJzaGN4bG01Y2Exajd5ZzUifQ.MPwMQdTlQOgn_WYj_g0nAz';",
    ),
    (
        "ssh_ed25519_public_key",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRBrcryCsbzORXVZptP+0Dob3VOrbT+08k+jaG+IQxZ "
        "jane@laptop",
    ),
    (
        "ssh_rsa_authorized_keys_line",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQBAEBu+WH6GuOZ7kVFxJXYzUph0ddH72CRqGWHfb0tR9SJtdv04JxaC4IIAr/ICs8xGUajL2t6gQdtVFIpgMyfaHdtOC12+R8QBX2iMlhRlmXF1dXHSpGvAMnVXnRbLMK4y+MbkmXOmRFdjG5/QEZ8QUIqISXh2POeNyddx2qtBffc46WJwhHeHCHksZv0oAQ0Qx8v6EfsorD6WtkcCwOWXUCw0i2Osv5YZFC868GzyLaAeZpfIpc9nANQz0L4tGB2bDvghoXMzCI5Bpl72sh6OOOaIcGwXubsbdYjLMpksyxVy3n+T818f6vEHE3XTSgGZ0e6Rf8l4KyuqpR/a2zCrG2IIzvRrv09qtj93xGgJ4fOXr/X7SyC0z214FvzyaZYFr98uOsyYEjpQ4E2aL51u7zlZIgASK+zQruZ4GFnhB7Tz0czp9RzDjBIwdlYxxtD86nwBCrbI1RkAhcvrAtdWQrDLUwAyASGfw2Qg2VWVFLtzo3qn9lY+A9qzUk5dTz0= "
        "deploy@ci",
    ),
    (
        "known_hosts_github_ed25519",
        "github.com ssh-ed25519 "
        "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
    ),
    (
        "pgp_public_key_block",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
        "\n"
        "mQINBNPW/MGu1ZQP57JXJbk086Uqtu3CtAmOy2xHAB6HNOF1yubpaJUkiGCygQy6\n"
        "qDP5VovxipQrdKLvUg9ujLKt68uMxFlV27JzFuoLXT6bi4GyWaHbsZlMtrIi0mPA\n"
        "jUn9fNcJg2OqI+sYFrRQS8XRVW2Qxh7JtcqiLec/ty3wkdzZvJ5toHsqZNoOcLFY\n"
        "LF4eJAkw/kZcKYdwdwEtXLRRukHOLZ9+0qVSlBeEOACHsAy4Z26ZiopLW2OHjqPk\n"
        "STs6f+ICgWp8vx0xWOax3E/qXQO6iNDeJ6f1OFOy1ni3kou7NP42gV0K2G3wQqrD\n"
        "wbUB5S2QWPRvaQe6b7iVV4cahmpw8jsu3g1P8Ll2LWn9ACuMXC5cDR8TcywU/vDL\n"
        "BHEe+yKSgZ36K6tEyZgzqQ==\n"
        "=cB8L\n"
        "-----END PGP PUBLIC KEY BLOCK-----",
    ),
    (
        "x509_certificate_block",
        "-----BEGIN CERTIFICATE-----\n"
        "MIIDxyHsI2G+WbbJLwrNeJ8W7+e5vYTH2ZiBDw7434o5RAZX/JVe/cmXHignADf7\n"
        "MveFKZ775FW5SKlLMxAGy/vjMyFw05XLQs6seTZGa3bwajb/akOyeitan2YWf73M\n"
        "E1euzKU76CrGzM37x4X8PYSwXomzEA0x/BpO2wtS/W4tpJ+YTTsRUDrrIIGoM82c\n"
        "Ux5rAeP+YyM8YJTTz5CsmJ6giiNZVTjRpFWFxs+1ylKguZii8KYu7nBK64/ptUNv\n"
        "Fr/b2x0lYLs2gHzERHBiq07kMfnq7BDuYbtYDUem6HOsgr79wVkvHPckWlF11791\n"
        "0aZYJtNyD7rzuvwZeG4eCoqwvOeoH+z1cel3ll19qrrNrZQ0VQlVPzy0B2UCbJDN\n"
        "BVUkoWmWZAfo4o49q7S9\n"
        "-----END CERTIFICATE-----",
    ),
    (
        "rsa_public_key_block",
        "-----BEGIN PUBLIC KEY-----\n"
        "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA/swPK2/+1PuJwTGTO4ES\n"
        "E207IF/YeS93BXarCwFv4EO/RKApeWAZnaClaDa3zyWON/8/6lp5JNkFylGmhi6u\n"
        "Kj0Mw6qfCsSxLY8/kdnBvzE26h9K9isFihmQqG0Ctv1gfoCAyDdGL6RyN7zAL6Xh\n"
        "TilG4bdHIxEVYGje5SWkU2cz6/EC4R6tMZrE9wFvd1sjC58by2ghbBbatx2tVNCl\n"
        "9yUWeUOOCeS6qbUKazjPw4KHbSOL/gp6q7XmaiXKTyaPEPcUjKT5lKPoZQXjSaMt\n"
        "m3AljogBlfZKI9toPAzdCZEmNMHF/VhxUlnxvet8wMdAkUwXt0DlQ9PeJoRBY+CP\n"
        "dgIDAQAB\n"
        "-----END PUBLIC KEY-----",
    ),
    # --- encoded-data ----------------------------------------------------------------------------
    (
        "base64_of_ordinary_sentence",
        "payload (base64): VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZyB3aGlsZSB0aGUgYnVpbGQgcmV0cmllcy4=",
    ),
    (
        "base64_json_context_header",
        "X-Request-Context: eyJyZWdpb24iOiJ1cy1lYXN0LTEiLCJ0ZW5hbnQiOiJhY21lIiwicGxhbiI6InBybyJ9",
    ),
    (
        "png_data_uri",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    ),
    (
        "css_module_hash_class",
        '<div class="css-1q2w3e4 Button_primary__3xK9a">Save</div>',
    ),
    (
        "css_asset_content_hash",
        '<link rel="stylesheet" href="/assets/main.3f9a2b1c.css">',
    ),
    (
        "webpack_chunk_hash",
        "static/js/vendors~main.8e0f2b9a1c4d5e6f.chunk.js  412.3 kB",
    ),
    (
        "hex_colours",
        "color: #1a2b3c; background: #ffeedd; border-color: #a0b1c2;",
    ),
    (
        "mac_and_ipv6_addresses",
        "en0: ether 1e:2b:3a:4d:5e:6f inet6 fe80::1c2b:3aff:fe4d:5e6f%en0",
    ),
    # --- keyword-no-secret -----------------------------------------------------------------------
    (
        "semver_with_build_metadata",
        "version: 1.2.3-beta.4+build.5678",
    ),
    (
        "max_tokens_number",
        "max_tokens=4096 temperature=0.2",
    ),
    (
        "token_count_field",
        "token_count: 512",
    ),
    (
        "password_policy_value",
        "password_policy=strict",
    ),
    (
        "ssh_key_path_value",
        "ssh_key_path=/home/deploy/.ssh/id_ed25519",
    ),
    (
        "api_key_required_boolean",
        "api_key_required=false",
    ),
    (
        "token_ttl_number",
        "token_ttl_seconds=3600",
    ),
    (
        "secrets_dir_path",
        "secrets_dir=/run/secrets",
    ),
    (
        "password_file_path",
        "--password-file=/etc/restic/password.txt",
    ),
    (
        "bearer_header_without_value",
        "401 Unauthorized: header 'Authorization: Bearer' is missing a token",
    ),
    (
        "bearer_scheme_in_prose",
        "Send the key in the Authorization header using the Bearer scheme.",
    ),
    (
        "passwordless_login_prose",
        "Enabled passwordless login via WebAuthn for 3 users",
    ),
    (
        "tokenizer_word",
        "Loaded tokenizer from /models/llama-3-8b/tokenizer.json (vocab_size=128256)",
    ),
    (
        "secretary_word",
        "Minutes sent to the board secretary on 2024-05-17",
    ),
    (
        "keyboard_word",
        "keyboard layout: us-intl, keymap=us",
    ),
    (
        "token_expired_prose",
        "The token expired at 12:00 UTC; please re-authenticate.",
    ),
    (
        "model_name_and_limits",
        "model=claude-3-5-sonnet-20241022 max_tokens=1024 stop_reason=end_turn",
    ),
    (
        "function_signature_access_token",
        "def get_access_token(client_id: str, scopes: list[str]) -> str:",
    ),
    (
        "getpass_prompt",
        'password = getpass.getpass("Password: ")',
    ),
    (
        "settings_attribute_reference",
        "secret_key = settings.SECRET_KEY",
    ),
    (
        "secretsmanager_action_name",
        "Action: secretsmanager:GetSecretValue  Effect: Deny",
    ),
    (
        "password_reset_masked_email",
        "Password reset email sent to j***@acme.io",
    ),
    (
        "set_cookie_preference_only",
        "Set-Cookie: theme=dark; Path=/; SameSite=Lax",
    ),
    (
        "api_key_rotation_prose",
        "API key rotation completed for 3 keys; old keys revoked.",
    ),
    # --- masked-placeholder ----------------------------------------------------------------------
    (
        "openai_masked_key_in_error",
        "Incorrect API key provided: sk-...abcd. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
    ),
    (
        "stripe_masked_live_key",
        "Invalid API Key provided: sk_live_********************4f2a",
    ),
    (
        "password_asterisks",
        "password: ********",
    ),
    (
        "token_redacted_marker",
        "token=[REDACTED] user=ci-bot",
    ),
    (
        "github_token_masked_actions_log",
        "GITHUB_TOKEN: ***",
    ),
    (
        "placeholder_angle_brackets",
        'curl -H "x-api-key: <YOUR_API_KEY>" https://api.anthropic.com/v1/models',
    ),
    (
        "placeholder_shell_brace_var",
        "export OPENAI_API_KEY=${API_KEY}",
    ),
    (
        "placeholder_shell_vars_curl_user",
        'curl -u "$NEXUS_USER:$NEXUS_PASSWORD" https://nexus.acme.io/',
    ),
    (
        "github_actions_secrets_expression",
        "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    ),
    (
        "os_environ_lookup",
        'api_key = os.environ["OPENAI_API_KEY"]',
    ),
    (
        "password_none",
        "connect(host='db', user='app', password=None)",
    ),
    (
        "password_json_null",
        '{"username": "jane", "password": null}',
    ),
    (
        "empty_env_value",
        "DB_PASSWORD=",
    ),
    (
        "placeholder_xxx",
        "AWS_SECRET_ACCESS_KEY=xxxxxxxx",
    ),
    (
        "placeholder_your_token_here",
        'SLACK_BOT_TOKEN="your-token-here"',
    ),
]
