module toolnorm.dev/clients/go

go 1.19
