module pqlab.test/goclient

go 1.25
